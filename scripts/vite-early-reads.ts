import type { OutputChunk } from 'rollup';
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
 *
 * `catalogs`: the chunk of each language's messages by locale. Once the candidate's read answers, the script
 * preloads the catalog of the language the screens will speak (the switcher's stored choice for the link, the
 * candidate's, the job's: src/features/interview/i18n/locale-choice.ts), so it arrives with the JS rather than after
 * it ran.
 */
export function earlyReadsScript(apiUrl: string, catalogs: Record<string, string> = {}): string {
  const preload = Object.keys(catalogs).length
    ? `var c=${JSON.stringify(catalogs)};r[q].then(function(x){if(!x||!x.ok)return;return x.clone().json().then(function(d){` +
      "var s=null;try{s=localStorage.getItem('screenroom.language.'+k)}catch(e){}" +
      "var l=[s,d.candidateLanguage,d.language].filter(function(v){return typeof v==='string'&&c.hasOwnProperty(v)})[0]||'en';" +
      "if(!c[l])return;var n=document.createElement('link');n.rel='modulepreload';n.crossOrigin='';n.href=c[l];document.head.appendChild(n)})})['catch'](function(){});"
    : '';
  return (
    `(function(){if(!window.fetch)return;var a=${JSON.stringify(apiUrl)},p=location.pathname,r={},m,k,q;` +
    "function get(path,headers){r[path]=fetch(a+path,{headers:headers})['catch'](function(){return null})}" +
    'if(m=/^\\/candidates\\/([^/]+)/.exec(p)){try{k=decodeURIComponent(m[1])}catch(e){return}' +
    "q='/api/screenroom/interviews/'+encodeURIComponent(k);get(q,{'X-Candidate-Key':k,'Accept-Language':'en-US'});" +
    preload +
    '}' +
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
  let base = '/';
  return {
    name: 'screenroom:early-reads',
    apply: 'build',
    configResolved(config) {
      // the same choice as src/config/env.ts: VITE_POCKETBASE_URL, else the page's own origin
      apiUrl = ((config.env as Record<string, string | undefined>).VITE_POCKETBASE_URL ?? '').trim().replace(/\/+$/, '');
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        // the catalogs' chunks, named by vite.config.ts's manualChunks
        const catalogs: Record<string, string> = {};
        for (const item of Object.values(bundle ?? {})) {
          const locale = item.type === 'chunk' ? /^messages-([a-z]{2})$/.exec((item as OutputChunk).name)?.[1] : undefined;
          if (locale) catalogs[locale] = base + item.fileName;
        }
        return [{ tag: 'script', children: earlyReadsScript(apiUrl, catalogs), injectTo: 'head-prepend' }];
      },
    },
  };
}
