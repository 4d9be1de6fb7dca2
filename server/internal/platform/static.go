package platform

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// The SPA's files, served from publicDir (the --publicDir flag), the one place that serves them:
//   - every page and asset is sent with `Referrer-Policy: no-referrer`: a candidate's credential is in the page's
//     path, /candidates/{key}, and must never leave in a Referer;
//   - every page with the build's Content-Security-Policy, made at build time (scripts/vite-csp.ts lists the inline
//     scripts of the built index.html by sha256) and written to <publicDir>/csp.json, read once on start;
//   - the production build's hashed assets (publicDir/assets, Vite's content-hashed file names) gzip-compressed and
//     cached for a year: PocketBase's own static handler sends them uncompressed and without Cache-Control, which
//     tripled a first visit's transfer. index.html and every SPA route stay uncached (index fallback, no
//     Cache-Control), so a new deploy is picked up on the next load.
// The handler and the gzip middleware are PocketBase's (apis.Static, apis.Gzip).

// fallbackContentSecurityPolicy is for a public dir without a readable csp.json (a build made before the CSP plugin,
// a hand-made public dir): the build's policy without any inline script allowed (scripts/vite-csp.ts explains each
// directive; the route preload script is only a hint, so the app works without it).
const fallbackContentSecurityPolicy = "default-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; " +
	"style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"

// ServeStatic serves publicDir's files on GET /{path...} (with index.html for a missing path when indexFallback) and
// its hashed assets on GET /assets/{path...}, after every other route.
func ServeStatic(app core.App, publicDir string, indexFallback bool) {
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Func: func(e *core.ServeEvent) error {
			policy := contentSecurityPolicy(e.App, publicDir)
			e.Router.GET("/{path...}", apis.Static(os.DirFS(publicDir), indexFallback)).BindFunc(func(re *core.RequestEvent) error {
				headers := re.Response.Header()
				headers.Set("Referrer-Policy", "no-referrer")
				headers.Set("Content-Security-Policy", policy)
				return re.Next()
			})
			e.Router.GET("/assets/{path...}", apis.Static(os.DirFS(filepath.Join(publicDir, "assets")), false)).BindFunc(func(re *core.RequestEvent) error {
				headers := re.Response.Header()
				headers.Set("Referrer-Policy", "no-referrer")
				headers.Set("Cache-Control", "public, max-age=31536000, immutable")
				err := re.Next()
				if err != nil {
					// a missing file is a 404 that must not be cached
					headers.Del("Cache-Control")
				}
				return err
			}).Bind(apis.Gzip())
			return e.Next()
		},
		// the catch-all routes last, as examples/base adds its static route
		Priority: 999,
	})
}

// contentSecurityPolicy is the policy of publicDir/csp.json, or the fallback, logged as an error when there is a build
// to serve (index.html) without a usable manifest beside it.
func contentSecurityPolicy(app core.App, publicDir string) string {
	policy, err := readContentSecurityPolicy(filepath.Join(publicDir, "csp.json"))
	if err == nil {
		return policy
	}
	// nothing to serve yet (development, the integration tests' empty public dir): nothing to say
	if _, statErr := os.Stat(filepath.Join(publicDir, "index.html")); statErr == nil {
		app.Logger().Error(
			"static: no usable csp.json beside index.html, pages get a policy that allows no inline script; rebuild with `npm run build`",
			"publicDir", publicDir,
			"error", err.Error(),
		)
	}
	return fallbackContentSecurityPolicy
}

func readContentSecurityPolicy(path string) (string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var manifest struct {
		Policy any `json:"policy"`
	}
	if err := json.Unmarshal(raw, &manifest); err != nil {
		return "", err
	}
	policy, ok := manifest.Policy.(string)
	if !ok || policy == "" {
		return "", errors.New("it has no policy")
	}
	return policy, nil
}
