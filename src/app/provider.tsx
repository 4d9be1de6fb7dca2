import './core-styles.css';

import { Theme } from '@radix-ui/themes';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Toaster } from 'sonner';

type AppProviderProps = {
  queryClient: QueryClient;
  children: ReactNode;
};

/** Everything a screen expects around it; tests render the same tree with their own QueryClient. */
export function AppProvider({ queryClient, children }: AppProviderProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <Theme accentColor="indigo" radius="medium" scaling="100%" appearance="inherit">
        {children}
        <Toaster duration={4000} visibleToasts={3} />
      </Theme>
    </QueryClientProvider>
  );
}
