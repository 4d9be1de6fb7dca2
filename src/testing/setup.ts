import '@testing-library/jest-dom/vitest';

import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { enableToaster } from '@/components/toaster';
import { pb } from '@/lib/pocketbase';

import { server } from './msw-server';

// jsdom has no ResizeObserver; Radix's popovers and scroll areas (Select, DropdownMenu) need one to render.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// jsdom makes no object URLs (a <track>'s captions, a download's file): a stand-in, which a test that looks at them
// replaces with its own.
if (!('createObjectURL' in URL)) Object.assign(URL, { createObjectURL: () => 'blob:jsdom', revokeObjectURL: () => undefined });

// findBy* and waitFor wait for an event, not a time: Testing Library's 1 s default fails a busy 2-core machine
// (a screen that takes 1.2 s to appear under load is not a bug). A wait that truly never ends still fails,
// with the query's message, well inside the unit project's test timeout (vitest.config.ts). 60 s: a stress run
// (npm test beside busy processes and other engineers' runs, load average 15 on 2 cores) saw a take's check at Stop
// and a Radix menu each take over 20 s to appear.
configure({ asyncUtilTimeout: 60_000 });

// Screens are rendered on their own too, outside the layouts that mount the toaster in the app.
enableToaster();

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  // Through the store, not localStorage.clear(), so session subscribers hear about it.
  pb.authStore.clear();
});

afterAll(async () => {
  // sonner removes a dismissed toast 200 ms later (TIME_BEFORE_UNMOUNT) on a timer it never clears, and that timer
  // asks for an animation frame: left to fire after the file's environment is gone, it throws "requestAnimationFrame
  // is not defined" and fails the run. Timers fire in the order they fall due, so one set now for 250 ms runs after
  // every such timer already set. Only in files that showed a toast.
  const { toast } = await import('sonner');
  if (toast.getHistory().length > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  server.close();
});
