import { createHash } from 'node:crypto';

import type { Plugin } from 'vite';

/** The file the build writes beside index.html; server/internal/platform/static.go reads it on start. */
export const CSP_MANIFEST = 'csp.json';

export type CspManifest = {
  /** The whole Content-Security-Policy header value for the SPA's pages. */
  policy: string;
  /** `'sha256-…'` of every inline script of the built HTML, as they appear in `policy`. */
  scriptHashes: string[];
  /** The API origin when VITE_POCKETBASE_URL points away from the page's own origin, else null. */
  apiOrigin: string | null;
};

/**
 * A CSP hash source for an inline script or style: `'sha256-<base64>'` of its text exactly as the browser reads it.
 * The HTML parser turns CR LF and lone CR into LF before a script's text exists, so the hash is taken after the same.
 */
export function cspHash(text: string): string {
  const normalized = text.replace(/\r\n?/g, '\n');
  return `'sha256-${createHash('sha256').update(normalized, 'utf8').digest('base64')}'`;
}

/**
 * The text of every inline `<script>` (one without `src`) of an HTML document. A script element's content is raw
 * text that ends at the first `</script`, so a regular expression finds the same text the parser does; comments are
 * dropped first so a commented-out script is not counted.
 */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  const withoutComments = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const match of withoutComments.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = match[1] ?? '';
    if (/(^|\s)src\s*=/i.test(attributes)) continue;
    scripts.push(match[2] ?? '');
  }
  return scripts;
}

/** The origin of VITE_POCKETBASE_URL, or null when it is unset (the API is then the page's own origin). */
export function apiOriginOf(apiUrl: string | undefined): string | null {
  const trimmed = apiUrl?.trim();
  if (!trimmed) return null;
  return new URL(trimmed).origin;
}

/**
 * The production policy: the page's own origin, the API and nothing else.
 * - script-src: the bundle ('self') and the build's inline scripts by hash; never 'unsafe-inline' or 'unsafe-eval'.
 * - connect-src, img-src, media-src: the API too (REST, realtime, avatars, answer videos by file URL); blob: for a
 *   recorded take played back before upload, data: for small inline images.
 * - style-src 'self' 'unsafe-inline': Radix Themes sets style attributes, and libraries insert `<style>` elements at
 *   run time: sonner its whole stylesheet, Radix ScrollArea and Select a scrollbar rule, react-remove-scroll-bar
 *   (Radix Dialog) a rule whose text carries the measured scrollbar width, so it cannot be listed by hash. The
 *   stricter `style-src 'self'; style-src-attr 'unsafe-inline'` leaves toasts unstyled and, in Safari before 15.4
 *   (14.3 is supported), which ignores style-src-attr, it would block every style attribute too. Styles cannot run
 *   script; script-src stays strict.
 * - object-src 'none', base-uri 'self', form-action 'self', frame-ancestors 'none' (no clickjacking frame).
 */
export function contentSecurityPolicy({ scriptHashes, apiOrigin }: { scriptHashes: string[]; apiOrigin: string | null }): string {
  const api = apiOrigin ? [apiOrigin] : [];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...scriptHashes],
    ['connect-src', "'self'", ...api],
    ['img-src', "'self'", 'data:', 'blob:', ...api],
    ['media-src', "'self'", 'blob:', ...api],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}

/** What the build writes to dist/csp.json for the HTML documents it emitted. */
export function cspManifest(htmlDocuments: string[], apiUrl: string | undefined): CspManifest {
  const scriptHashes = [...new Set(htmlDocuments.flatMap(inlineScripts).map(cspHash))];
  const apiOrigin = apiOriginOf(apiUrl);
  return { policy: contentSecurityPolicy({ scriptHashes, apiOrigin }), scriptHashes, apiOrigin };
}

/**
 * Issue 13: the production CSP allows the inline scripts the build emits (the route preload script) by their sha256,
 * computed here at build time from the final HTML, after every other plugin changed it. The policy goes to
 * dist/csp.json; PocketBase sends it with every page it serves from the build (server/internal/platform/static.go).
 */
export function cspManifestPlugin(): Plugin {
  let apiUrl: string | undefined;
  return {
    name: 'screenroom:csp-manifest',
    apply: 'build',
    configResolved(config) {
      apiUrl = (config.env as Record<string, string | undefined>).VITE_POCKETBASE_URL;
    },
    generateBundle: {
      // after vite:build-html emitted index.html with every tag injected
      order: 'post',
      handler(_options, bundle) {
        const html: string[] = [];
        for (const item of Object.values(bundle)) {
          if (item.type !== 'asset' || !item.fileName.endsWith('.html')) continue;
          html.push(typeof item.source === 'string' ? item.source : new TextDecoder().decode(item.source));
        }
        if (html.length === 0) this.error('csp-manifest: the build emitted no HTML to hash.');
        this.emitFile({
          type: 'asset',
          fileName: CSP_MANIFEST,
          source: `${JSON.stringify(cspManifest(html, apiUrl), null, 2)}\n`,
        });
      },
    },
  };
}
