import type { Plugin } from 'vite';

/** The window property the inline script leaves its requests on, by API path; src/lib/early-read.ts takes them. */
export const EARLY_READS = '__screenroomEarlyReads';

/**
 * The inline script: while the HTML is parsed, in parallel with the JS, it starts the first reads of the page the app
 * would otherwise send only after the entry and the screen's chunks ran (the same GETs, with the same headers):
 * - a candidate's page (`/candidates/{key}...`): the interview read, with the key in the path and the header;
 * - a manager's company home (`/companies/{id}` or `/companies/{id}/jobs`) with a session in the SDK's store that is
 *   not about to expire: the jobs list and its counts, with that session's token, as the SDK sends it.
 * `apiUrl` is the API's base ('' for the page's own origin). A failed request leaves the read to the app.
 */
export function earlyReadsScript(apiUrl: string): string {
  return (
    `(function(){if(!window.fetch)return;var a=${JSON.stringify(apiUrl)},p=location.pathname,r={},m,k;` +
    "function get(path,headers){r[path]=fetch(a+path,{headers:headers})['catch'](function(){return null})}" +
    'if(m=/^\\/candidates\\/([^/]+)/.exec(p)){try{k=decodeURIComponent(m[1])}catch(e){return}' +
    "get('/api/screenroom/interviews/'+encodeURIComponent(k),{'X-Candidate-Key':k,'Accept-Language':'en-US'})}" +
    'else if(m=/^\\/companies\\/([a-z0-9]{15})(\\/jobs)?\\/?$/.exec(p)){try{' +
    "var s=JSON.parse(localStorage.getItem('pocketbase_auth')||'null'),t=s&&s.token;" +
    "if(!t||!s.record||s.record.collectionName!=='users')return;" +
    "var x=JSON.parse(atob(t.split('.')[1].replace(/-/g,'+').replace(/_/g,'/'))).exp;" +
    'if(!(x*1000>Date.now()+60000))return}catch(e){return}' +
    "var h={Authorization:t,'Accept-Language':'en-US'},c='/api/screenroom/companies/'+m[1];" +
    "get(c+'/jobs',h);get(c+'/job-counts',h)}" +
    `window.${EARLY_READS}=r})()`
  );
}

/**
 * Puts the script at the top of index.html's head, before the stylesheet and the entry, so the requests start first.
 * Build only: the dev server reads the ordinary way. Its sha256 joins the production CSP like every inline script of
 * the built HTML (scripts/vite-csp.ts hashes the final HTML).
 */
export function earlyReads(): Plugin {
  let apiUrl = '';
  return {
    name: 'screenroom:early-reads',
    apply: 'build',
    configResolved(config) {
      // the same choice as src/config/env.ts: VITE_POCKETBASE_URL, else the page's own origin
      apiUrl = ((config.env as Record<string, string | undefined>).VITE_POCKETBASE_URL ?? '').trim().replace(/\/+$/, '');
    },
    transformIndexHtml: {
      order: 'post',
      handler() {
        return [{ tag: 'script', children: earlyReadsScript(apiUrl), injectTo: 'head-prepend' }];
      },
    },
  };
}
