import { readdirSync } from 'node:fs';

import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * conventions.md "Layers point one way": app → features → shared.
 * A feature reaches another only through its `api/` or `components/`, never its screens.
 */
const layerZones = [
  {
    // code the media worker bundles too (worker/src): it depends on nothing else of the app's
    target: './src/lib/shared-with-worker',
    from: './src',
    except: ['./lib/shared-with-worker'],
    message: 'src/lib/shared-with-worker is bundled by the media worker too: import nothing else of the app from it.',
  },
  {
    target: './src/features',
    from: './src/app',
    message: 'Features never import src/app.',
  },
  {
    target: ['./src/components', './src/config', './src/hooks', './src/lib'],
    from: ['./src/app', './src/features'],
    message: 'Shared code (components, config, hooks, lib) never imports src/app or a feature.',
  },
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [
      `./${feature}`,
      ...features
        .filter((other) => other !== feature)
        .flatMap((other) => [`./${other}/api`, `./${other}/components`]),
    ],
    message: 'Use another feature only through its api/ or components/ folders.',
  })),
];

export default defineConfig([
  globalIgnores([
    'dist/',
    'node_modules/',
    'server/',
    'test-results/',
    'playwright-report/',
    'blob-report/',
    'coverage/',
    '.data/',
    '.cache/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  // Node code written alongside the app: configs, scripts, the worker, integration and browser tests.
  {
    files: ['*.{js,mjs,cjs,ts,mts}', 'scripts/**', 'worker/**', 'tests/**', 'e2e/**', 'e2e-webkit/**'],
    languageOptions: { globals: globals.node },
  },

  // The media worker shares code with the SPA through src/lib/shared-with-worker only.
  {
    files: ['worker/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)src/(?!lib/shared-with-worker/)',
              message: 'The worker imports from the SPA only what src/lib/shared-with-worker holds.',
            },
          ],
        },
      ],
    },
  },

  // The SPA.
  {
    files: ['src/**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      globals: globals.browser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: {
      'react-hooks': reactHooks,
      import: importPlugin,
    },
    settings: {
      'import/resolver': {
        typescript: { project: './tsconfig.app.json' },
        node: true,
      },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'import/no-restricted-paths': ['error', { zones: layerZones }],
      'import/no-cycle': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // JSX handlers may return promises (react-hook-form's handleSubmit does); React ignores the result.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },

  // No barrel files: they defeat tree-shaking and hide the layer a module belongs to.
  {
    files: ['src/**/index.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'Program', message: 'No barrel index files: import each module by its own path.' },
      ],
    },
  },
]);
