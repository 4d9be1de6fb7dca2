import { defineConfig, mergeConfig } from 'vitest/config';

import viteConfig from './vite.config';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      projects: [
        {
          extends: true,
          // ES builds first: Testing Library's `main` and react-router's default export are CommonJS, whose
          // `require('react-dom')` Node would resolve, not Vite (`module-sync` picks react-router's ES build)
          resolve: { mainFields: ['module', 'jsnext:main', 'jsnext', 'main'], conditions: ['module-sync', 'module', 'browser', 'development|production'] },
          test: {
            name: 'unit',
            environment: 'jsdom',
            include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
            setupFiles: ['src/testing/setup.ts'],
            // the app runs on Preact (vite.config.ts's aliases, issue 20), and so do its unit tests: every package that
            // imports React goes through Vite, so the aliases reach it, instead of being loaded by Node with React's own
            server: { deps: { inline: true } },
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
