import { defineConfig, mergeConfig } from 'vitest/config';

import viteConfig from './vite.config';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      projects: [
        {
          extends: true,
          test: {
            name: 'unit',
            environment: 'jsdom',
            include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
            setupFiles: ['src/testing/setup.ts'],
            // above every inner wait (Testing Library's 60 s, src/testing/setup.ts), so a slow run fails with the
            // message of what did not happen rather than as a bare timeout
            testTimeout: 240_000,
            hookTimeout: 240_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'integration',
            environment: 'node',
            include: ['tests/**/*.test.ts'],
            globalSetup: ['tests/setup/global-setup.ts'],
            // above every inner wait (mail 30 s, polls 30 s; the worker's own tests set theirs), so a slow run
            // fails with the message of what did not happen
            testTimeout: 120_000,
            hookTimeout: 120_000,
            // `fileParallelism` is a root-only option in Vitest 3; one fork runs the files one after another,
            // which is what suites sharing a single PocketBase need.
            pool: 'forks',
            poolOptions: { forks: { singleFork: true } },
          },
        },
      ],
    },
  }),
);
