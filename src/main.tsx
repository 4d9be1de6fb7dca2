import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { AppProvider } from '@/app/provider';
import { AppRouter } from '@/app/router';
import { queryClient } from '@/lib/query-client';
import { makeZodJitless } from '@/lib/zod-jitless';

// zod 4 probes `new Function` once for a faster parser; the production CSP forbids eval, so do without.
makeZodJitless();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

createRoot(container).render(
  <StrictMode>
    <AppProvider queryClient={queryClient}>
      <AppRouter />
    </AppProvider>
  </StrictMode>,
);
