import { fileURLToPath, URL } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { browserSyntax } from './scripts/vite-browser-syntax';
import { cspManifestPlugin } from './scripts/vite-csp';
import { earlyReads } from './scripts/vite-early-reads';
import { precompiledMessages } from './scripts/vite-precompiled-messages';
import { radixSubset } from './scripts/vite-radix-subset';
import { routePreload } from './scripts/vite-route-preload';

/**
 * The browsers decisions.md supports (Safari 14.3+ on macOS and iOS, Firefox ESR, current Chromium), as esbuild's
 * targets: what the build writes for scripts and stylesheets must parse there.
 */
const BROWSERS = ['safari14.1', 'ios14.3', 'firefox115', 'chrome120', 'edge120'];

// The API origin is chosen at runtime in src/config/env.ts (VITE_POCKETBASE_URL, else same origin in a
// production build, else the local PocketBase in development); nothing here needs to know it.
export default defineConfig({
  plugins: [
    react(),
    // The lazy layout and screen a first visit renders, by address (src/app/routes.tsx); see the plugin.
    routePreload([
      {
        path: /^\/candidates\/[^/]+\/?$/,
        modules: ['src/app/layouts/candidate-layout.tsx', 'src/features/interview/screens/interview-start.tsx'],
      },
      { path: /^\/candidates\//, modules: ['src/app/layouts/candidate-layout.tsx'] },
      { path: /^\/shared\/[^/]+\/?$/, modules: ['src/features/share-links/screens/shared-review.tsx'] },
      { path: /^\/(auth\/)?sign-in\/?$/, modules: ['src/app/layouts/auth-layout.tsx', 'src/features/auth/screens/sign-in.tsx'] },
      { path: /^\/(auth|invites)\//, modules: ['src/app/layouts/auth-layout.tsx'] },
      {
        path: /^\/companies\/[^/]+(\/jobs)?\/?$/,
        modules: ['src/app/layouts/manager-shell.tsx', 'src/features/jobs/screens/jobs-list.tsx'],
      },
      { path: /^\/(companies|preferences)\//, modules: ['src/app/layouts/manager-shell.tsx'] },
    ]),
    // The candidate's catalogs arrive parsed, and the production build holds no ICU parser.
    precompiledMessages(),
    // A candidate's interview read and a company home's jobs start from an inline script, in parallel with the JS.
    earlyReads(),
    // dist/csp.json: the production CSP with the sha256 of the inline script above (server/internal/platform/static.go sends it)
    cspManifestPlugin(),
    // a build whose scripts the oldest supported Safari cannot parse fails (BROWSERS above)
    browserSyntax(),
  ],
  css: {
    postcss: { plugins: [radixSubset()] },
  },
  resolve: {
    alias: [
      { find: /^@\//, replacement: fileURLToPath(new URL('./src/', import.meta.url)) },
    ],
  },
  // A candidate's credential is in the page's path (/candidates/{key}): no request from the page may carry it in a
  // Referer (issue 13). Production sends the same from PocketBase (server/internal/platform/static.go).
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    headers: { 'Referrer-Policy': 'no-referrer' },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    strictPort: true,
    headers: { 'Referrer-Policy': 'no-referrer' },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Lightning CSS minifies Radix's stylesheets about 0.5% smaller than esbuild (issue 20: the company home's first
    // visit CSS, entry and manager shell, 30,787 → 30,695 B gzip), for the browsers decisions.md supports: Safari
    // 14.3+ on macOS and iOS, Firefox ESR, current Chromium (the prefixes and fallbacks they need are written, nothing
    // newer than they read). Vite's own default, the 'baseline widely available' browsers, starts at Safari 16.
    cssMinify: 'lightningcss',
    cssTarget: BROWSERS,
    // The scripts too: Vite's default target let through syntax Safari 14 cannot parse (the private methods of
    // @tanstack/query-core, `this.#fetch()`, Safari 15+), which is a page that never starts there.
    target: BROWSERS,
    rollupOptions: {
      output: {
        // Rollup splits code shared by lazy routes into many tiny chunks (one per Radix component...): a first visit
        // to the company home fetched 24 files. Chunks under 20 KB that only define code are merged into others
        // loaded in similar conditions (issue 8: fewer round trips on a slow phone, about the same bytes).
        experimentalMinChunkSize: 20_000,
        // The WebM reader of the take check (fetched when a take starts, prepareTakeCheck) stays a chunk of its own:
        // as a small lazy chunk it became the one the merge put shared code into (Card, the interview's camera),
        // which made every first visit, the sign-in's too, download the reader with it.
        // Each language's catalog is a chunk of its own too (a merge would make a candidate download two languages),
        // named so the early-read script preloads the candidate's (scripts/vite-early-reads.ts).
        manualChunks: (id) => {
          if (/\/src\/(features\/interview\/upload\/webm-length|lib\/shared-with-worker\/ebml)\.ts$/.test(id)) return 'webm-length';
          const catalog = /\/src\/features\/interview\/i18n\/messages\/([a-z]{2})\.json$/.exec(id);
          return catalog ? `messages-${catalog[1]}` : undefined;
        },
      },
    },
  },
});
