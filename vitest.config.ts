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
          },
        },
        {
          extends: true,
          test: {
            name: 'integration',
            environment: 'node',
            include: ['tests/**/*.test.ts'],
            globalSetup: ['tests/setup/global-setup.ts'],
            testTimeout: 60_000,
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
