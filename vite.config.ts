import { fileURLToPath, URL } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { radixSubset } from './scripts/vite-radix-subset';

// The API origin is chosen at runtime in src/config/env.ts (VITE_POCKETBASE_URL, else same origin in a
// production build, else the local PocketBase in development); nothing here needs to know it.
export default defineConfig({
  plugins: [react()],
  css: {
    postcss: { plugins: [radixSubset()] },
  },
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    strictPort: true,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
});
