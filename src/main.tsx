import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { AppProvider } from '@/app/provider';
import { AppRouter, routerReady } from '@/app/router';
import { queryClient } from '@/lib/query-client';
import { renderInPlace } from '@/lib/render-in-place';
import { keepSessionCookie } from '@/lib/session-cookie';
import { makeZodJitless } from '@/lib/zod-jitless';

// zod 4 probes `new Function` once for a faster parser; the production CSP forbids eval (issue 13), so do without.
makeZodJitless();

// the session's copy for page loads of the company home, which the server then writes signed in (issue 20)
keepSessionCookie();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

const app = (
  <StrictMode>
    <AppProvider queryClient={queryClient}>
      <AppRouter />
    </AppProvider>
  </StrictMode>
);

// A first screen the server already wrote (a candidate's start screen, the sign-in, the company home:
// pocketbase/first_screens.go) stays until the app can render the same screen, and the app's render then reuses its
// elements (src/lib/render-in-place.ts): nothing moves and nothing is built twice. Rendered at once, the app would
// first empty the page.
if (container.hasAttribute('data-first-screen')) void routerReady().then(() => renderInPlace(app, container));
else createRoot(container).render(app);
