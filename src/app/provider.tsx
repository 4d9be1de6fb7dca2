import './core-styles.css';

import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';

import { Toaster } from '@/components/toaster';

type AppProviderProps = {
  queryClient: QueryClient;
  children: ReactNode;
};

/** Everything a screen expects around it; tests render the same tree with their own QueryClient. */
export function AppProvider({ queryClient, children }: AppProviderProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <ThemeFrame>
        {children}
        <Toaster />
      </ThemeFrame>
    </QueryClientProvider>
  );
}

/**
 * What Radix's root <Theme accentColor="indigo" radius="medium" scaling="100%" appearance="inherit"> renders
 * (the gray matching indigo is slate), without its React context: enough for the entry's routes and the
 * candidate's interview, whose components read only these attributes. Layouts whose components need the
 * context wrap themselves in <AppTheme> (src/components/app-theme.tsx).
 */
function ThemeFrame({ children }: { children: ReactNode }) {
  return (
    <div
      className="radix-themes"
      data-is-root-theme="true"
      data-accent-color="indigo"
      data-gray-color="slate"
      data-has-background="true"
      data-panel-background="translucent"
      data-radius="medium"
      data-scaling="100%"
    >
      {children}
    </div>
  );
}
