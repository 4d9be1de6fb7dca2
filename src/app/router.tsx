import { createBrowserRouter, RouterProvider } from 'react-router-dom';

import { restoreSession } from '@/features/auth/api/refresh-session';

import { routes } from './routes';

// Check the stored session against the server (a deleted or expired account is signed out) while the app loads.
// Started before the router: creating it runs the first page's loaders at once, and `/` (homeLoader) waits for
// this refresh to pick the user's company. Started after (in main.tsx, which imports this module first), the loader
// found nothing to wait for and `/` went by the stored session: a company chosen since was not yet in it.
void restoreSession();

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
