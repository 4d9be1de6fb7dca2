/// <reference path="../../.cache/pocketbase/types.d.ts" />

// The production build's hashed assets (dist/assets, Vite's content-hashed file names) served gzip-compressed and
// cached for a year: PocketBase's own static route (--publicDir) sends them uncompressed and without
// Cache-Control, which tripled a first visit's transfer (issue 8). index.html and every SPA route stay uncached
// (index fallback, no Cache-Control), so a new deploy is picked up on the next load.
//
// Both the handler and the gzip middleware are PocketBase's Go functions; only the header middlewares below are JS.
//
// Issue 13: every page and asset is sent with `Referrer-Policy: no-referrer` (a candidate's credential is in the
// page's path, /candidates/{key}, and must never leave in a Referer), and every page with the build's
// Content-Security-Policy. The policy is made at build time (scripts/vite-csp.ts: it lists the inline scripts of
// the built index.html by sha256) and written to <publicDir>/csp.json, read here once on start. To send it, this file
// registers the `/{path...}` route itself (the same static handler with index fallback); PocketBase's own pb_public
// route is only added when no hook registered that path.
(() => {
  const args = $os.args;
  let publicDir = "";
  for (let i = 0; i < args.length; i++) {
    if (args[i].indexOf("--publicDir=") === 0) publicDir = args[i].slice("--publicDir=".length);
    else if (args[i] === "--publicDir" && i + 1 < args.length) publicDir = args[i + 1];
  }
  // Without --publicDir the stock pb_public route stays as it is.
  if (!publicDir) return;

  // Without a readable manifest (a build made before the CSP plugin, a hand-made public dir) the pages still get a
  // policy: the same one without any inline script allowed (scripts/vite-csp.ts explains each directive; the
  // route preload script is only a hint, so the app works without it). The error says what to fix.
  const fallbackPolicy =
    "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; " +
    "style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
  let policy = fallbackPolicy;
  try {
    const manifest = JSON.parse(toString($os.readFile(publicDir + "/csp.json")));
    if (typeof manifest.policy !== "string" || !manifest.policy) throw new Error("it has no policy");
    policy = manifest.policy;
  } catch (err) {
    let hasBuild = true;
    try {
      $os.stat(publicDir + "/index.html");
    } catch (statErr) {
      hasBuild = false; // nothing to serve yet (development, the integration tests' empty public dir)
    }
    if (hasBuild) {
      $app.logger().error(
        "static: no usable csp.json beside index.html, pages get a policy that allows no inline script; rebuild with `npm run build`",
        "publicDir", publicDir,
        "error", String(err),
      );
    }
  }
  // Handlers run in other VMs than this file (no closures over its variables): the app's store carries the policy.
  $app.store().set("screenroom.contentSecurityPolicy", policy);

  routerAdd(
    "GET",
    "/{path...}",
    $apis.static($os.dirFS(publicDir), true),
    (e) => {
      const headers = e.response.header();
      headers.set("Referrer-Policy", "no-referrer");
      headers.set("Content-Security-Policy", e.app.store().get("screenroom.contentSecurityPolicy"));
      return e.next();
    },
  );

  routerAdd(
    "GET",
    "/assets/{path...}",
    $apis.static($os.dirFS(publicDir + "/assets"), false),
    (e) => {
      e.response.header().set("Referrer-Policy", "no-referrer");
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
