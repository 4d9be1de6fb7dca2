import '@testing-library/jest-dom/vitest';

import { cleanup } from '@testing-library/react';
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

afterAll(() => {
  server.close();
});
