import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { AppProvider } from '@/app/provider';
import { AppRouter } from '@/app/router';
import { restoreSession } from '@/features/auth/api/refresh-session';
import { queryClient } from '@/lib/query-client';
import { makeZodJitless } from '@/lib/zod-jitless';

// zod 4 probes `new Function` once for a faster parser; the production CSP forbids eval (issue 13), so do without.
makeZodJitless();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

// Check the stored session against the server (a deleted or expired account is signed out) while the app loads.
void restoreSession();

createRoot(container).render(
  <StrictMode>
    <AppProvider queryClient={queryClient}>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
