/**
 * zod 4 probes `new Function` once for a faster parser; the production CSP forbids eval (issue 13), so it must run
 * without. zod keeps its settings on `globalThis.__zod_globalConfig` and creates that object only when it is absent
 * (zod/v4/core/core.js, so that several copies of zod share one), so the entry sets it here without importing zod:
 * importing `config` from 'zod/v4/core' put 4 KB gzip of zod into every first visit (issue 20), though no first screen
 * parses anything. src/lib/zod-jitless.test.ts proves the installed zod reads it.
 */
export function makeZodJitless(): void {
  const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  scope.__zod_globalConfig ??= {};
  scope.__zod_globalConfig.jitless = true;
}
