import { ThemeContext } from '@radix-ui/themes';
import type { ComponentProps, ReactNode } from 'react';

type ThemeContextValue = NonNullable<ComponentProps<typeof ThemeContext.Provider>['value']>;

const unchangeable = () => undefined;

/**
 * Radix's theme context with the product's settings (decisions.md ## Identity): what <Theme accentColor="indigo"
 * radius="medium" scaling="100%" appearance="inherit"> hands its components (the gray matching indigo is slate).
 *
 * The themed frame itself is drawn once for every page by the entry (src/app/provider.tsx), so no screen mounts
 * Radix's <Theme>. Only components that read the context need this around them: Select, DropdownMenu, ContextMenu,
 * and everything portalled (Dialog, AlertDialog, Popover, HoverCard, Tooltip: without the context their content
 * becomes a root theme of its own, 100vh tall). Each wraps itself where it is used, inside its own lazy chunk,
 * because importing this module loads Radix's theme, tooltip and popper code (about 13 KB gzip): kept off the
 * first paint of every page that shows none of them (issue 8). A Tooltip also needs Radix's Tooltip provider.
 */
const productTheme: ThemeContextValue = {
  appearance: 'inherit',
  accentColor: 'indigo',
  grayColor: 'auto',
  resolvedGrayColor: 'slate',
  panelBackground: 'translucent',
  radius: 'medium',
  scaling: '100%',
  onAppearanceChange: unchangeable,
  onAccentColorChange: unchangeable,
  onGrayColorChange: unchangeable,
  onPanelBackgroundChange: unchangeable,
  onRadiusChange: unchangeable,
  onScalingChange: unchangeable,
};

export function AppTheme({ children }: { children: ReactNode }) {
  return <ThemeContext.Provider value={productTheme}>{children}</ThemeContext.Provider>;
}
