import { Theme } from '@radix-ui/themes';
import type { ReactNode } from 'react';

/**
 * Radix's Theme with the product's settings (decisions.md ## Identity). The manager shell and the auth card mount it
 * (their Selects, menus and tooltips need its context and tooltip provider); the entry only draws the same frame
 * with plain attributes (provider.tsx), which keeps Radix's tooltip and popper code (about 11 KB gzip) out of a
 * candidate's first visit.
 */
export function AppTheme({ children }: { children: ReactNode }) {
  return (
    <Theme accentColor="indigo" radius="medium" scaling="100%" appearance="inherit">
      {children}
    </Theme>
  );
}
