import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';

export type RoutePreload = {
  /** Matched against location.pathname; the first matching entry wins. */
  path: RegExp;
  /** Source files (from the project root) of the lazy layout and screen that page renders first. */
  modules: string[];
};

/**
 * Starts downloading the lazy chunks of the first screen together with the entry, instead of after it ran: an
 * inline script in index.html picks the entry of `routes` matching the address and adds `modulepreload` links for
 * those modules' chunks, their imports and `preload` links for their CSS. It is only a hint: a wrong or missing
 * entry costs a download or a round trip, never correctness (React Router still imports what it renders). Like Vite's own preloads, the links are
 * `crossorigin`, so the later import or stylesheet reuses the preloaded response.
 * Issue 8: on a throttled phone this saves the round trips of the lazy-route waterfall before the first paint.
 */
export function routePreload(routes: RoutePreload[]): Plugin {
  let base = '/';
  return {
    name: 'screenroom:route-preload',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return;
        const chunks = Object.values(bundle).filter((item): item is OutputChunk => item.type === 'chunk');
        const entryFiles = new Set<string>();
        for (const chunk of chunks) if (chunk.isEntry) collect(bundle, chunk, entryFiles);
        const table = routes.map(({ path, modules }) => {
          const files = new Set<string>();
          for (const module of modules) {
            // A module without a chunk of its own (merged into another) is preloaded with the chunk holding it.
            const chunk =
              chunks.find((c) => c.facadeModuleId?.endsWith(`/${module}`)) ??
              chunks.find((c) => c.moduleIds.some((id) => id.endsWith(`/${module}`)));
            if (!chunk) throw new Error(`route-preload: no chunk for ${module}`);
            collect(bundle, chunk, files);
          }
          return [path.source, [...files].filter((file) => !entryFiles.has(file)).map((file) => base + file)];
        });
        const script =
          `(function(){var p=location.pathname,t=${JSON.stringify(table)};` +
          'for(var i=0;i<t.length;i++){if(new RegExp(t[i][0]).test(p)){t[i][1].forEach(function(f){' +
          "var l=document.createElement('link');if(/\\.css$/.test(f)){l.rel='preload';l.as='style'}else{l.rel='modulepreload'}" +
          "l.crossOrigin='';l.href=f;document.head.appendChild(l)});break}}})()";
        return [{ tag: 'script', children: script, injectTo: 'head' }];
      },
    },
  };
}

/** A chunk's file, its static imports' files (recursively) and the CSS files they import. */
function collect(bundle: OutputBundle, chunk: OutputChunk, files: Set<string>): void {
  if (files.has(chunk.fileName)) return;
  files.add(chunk.fileName);
  for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(css);
  for (const name of chunk.imports) {
    const imported = bundle[name];
    if (imported?.type === 'chunk') collect(bundle, imported, files);
  }
}
