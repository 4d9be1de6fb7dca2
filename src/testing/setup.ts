import '@testing-library/jest-dom/vitest';

import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { pb } from '@/lib/pocketbase';

import { server } from './msw-server';

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
