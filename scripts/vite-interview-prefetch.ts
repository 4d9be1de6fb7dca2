import type { Plugin } from 'vite';

/** The window property the inline script leaves its request on; src/features/interview/api/early-interview.ts reads it. */
export const EARLY_INTERVIEW = '__screenroomInterview';

/**
 * The inline script: on a candidate's page (`/candidates/{key}...`) it starts the interview read (the same GET the
 * app's `getInterview` makes, with the same headers) while the HTML is parsed, in parallel with the JS, instead of
 * after the entry and the candidate chunks ran. `apiUrl` is the API's base ('' for the page's own origin).
 * The candidate's first screen so waits no round trip after the JS for its text.
 */
export function interviewPrefetchScript(apiUrl: string): string {
  return (
    `(function(){var m=/^\\/candidates\\/([^/]+)/.exec(location.pathname);if(!m||!window.fetch)return;var k;` +
    'try{k=decodeURIComponent(m[1])}catch(e){return}' +
    `window.${EARLY_INTERVIEW}={key:k,response:fetch(${JSON.stringify(apiUrl)}+'/api/screenroom/interviews/'+encodeURIComponent(k),` +
    "{headers:{'X-Candidate-Key':k,'Accept-Language':'en-US'}})['catch'](function(){return null})}})()"
  );
}

/**
 * Puts the script at the top of index.html's head, before the stylesheet and the entry, so the request starts first.
 * Build only: the dev server reads the interview the ordinary way. Its sha256 joins the production CSP like every
 * inline script of the built HTML (scripts/vite-csp.ts hashes the final HTML).
 */
export function interviewPrefetch(): Plugin {
  let apiUrl = '';
  return {
    name: 'screenroom:interview-prefetch',
    apply: 'build',
    configResolved(config) {
      // the same choice as src/config/env.ts: VITE_POCKETBASE_URL, else the page's own origin
      apiUrl = ((config.env as Record<string, string | undefined>).VITE_POCKETBASE_URL ?? '').trim().replace(/\/+$/, '');
    },
    transformIndexHtml: {
      order: 'post',
      handler() {
        return [{ tag: 'script', children: interviewPrefetchScript(apiUrl), injectTo: 'head-prepend' }];
      },
    },
  };
}
