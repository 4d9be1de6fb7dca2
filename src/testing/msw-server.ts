import { setupServer } from 'msw/node';

/** No default handlers: each test declares the calls it expects with `server.use(...)`. */
export const server = setupServer();
