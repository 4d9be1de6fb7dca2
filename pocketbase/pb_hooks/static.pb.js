/// <reference path="../../.cache/pocketbase/types.d.ts" />

// The production build's hashed assets (dist/assets, Vite's content-hashed file names) served gzip-compressed and
// cached for a year: PocketBase's own static route (--publicDir) sends them uncompressed and without
// Cache-Control, which tripled a first visit's transfer (issue 8). index.html and every SPA route stay on the
// built-in route (index fallback), so a new deploy is picked up on the next load.
//
// Both the handler and the gzip middleware are PocketBase's Go functions, so no JS runs per request; only the
// Cache-Control middleware below is JS, and it runs for /assets/* alone.
(() => {
  const args = $os.args;
  let publicDir = "";
  for (let i = 0; i < args.length; i++) {
    if (args[i].indexOf("--publicDir=") === 0) publicDir = args[i].slice("--publicDir=".length);
    else if (args[i] === "--publicDir" && i + 1 < args.length) publicDir = args[i + 1];
  }
  // Without --publicDir the stock pb_public route stays as it is.
  if (!publicDir) return;

  routerAdd(
    "GET",
    "/assets/{path...}",
    $apis.static($os.dirFS(publicDir + "/assets"), false),
    (e) => {
      // A missing file is a 404 that must not be cached.
      e.response.header().set("Cache-Control", "public, max-age=31536000, immutable");
      try {
        return e.next();
      } catch (err) {
        e.response.header().del("Cache-Control");
        throw err;
      }
    },
    $apis.gzip(),
  );
})();
