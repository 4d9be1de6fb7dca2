import { defineConfig } from 'vitest/config';

// The candidate journeys in WebKitGTK (Safari's engine) through WebKitWebDriver: `npm run test:e2e-webkit`, and a
// step of `npm test`. Own ports beside the Chromium suite's (8190/1190/1125), overridable like theirs; set here,
// before anything reads scripts/lib/e2e-ports.mjs, so the global setup and the test files agree.
process.env.E2E_PB_PORT ??= '8192';
process.env.E2E_MAIL_WEB_PORT ??= '1192';
process.env.E2E_MAIL_SMTP_PORT ??= '1127';
process.env.WEBKIT_DRIVER_PORT ??= '4192';

export default defineConfig({
  test: {
    name: 'e2e-webkit',
    root: import.meta.dirname + '/..',
    environment: 'node',
    include: ['e2e-webkit/**/*.test.ts'],
    globalSetup: ['e2e-webkit/global-setup.ts'],
    // above every inner wait (20 s for what a user sees, 60 s for answers to reach the server)
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // one stack, one driver: the files run one after another
    fileParallelism: false,
    pool: 'forks',
    poolOptions: { forks: { singleFork: true } },
  },
});
