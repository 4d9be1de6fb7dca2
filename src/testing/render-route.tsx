import type { ReactElement } from 'react';
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';

import { AppTheme } from '@/components/app-theme';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/routes';

export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, gcTime: Number.POSITIVE_INFINITY },
      mutations: { retry: false },
    },
  });
}

/** Renders the app's real route table at `path`, with the app's providers around it. */
export function renderRoute(path: string, { queryClient = createTestQueryClient() } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient };
}

/**
 * Renders one component (no router) inside the app's providers, and the Radix Theme the manager shell and the
 * auth card provide to their screens.
 */
export function renderWithProviders(ui: ReactElement, { queryClient = createTestQueryClient() } = {}) {
  return {
    ...render(
      <AppProvider queryClient={queryClient}>
        <AppTheme>{ui}</AppTheme>
      </AppProvider>,
    ),
    queryClient,
  };
}
