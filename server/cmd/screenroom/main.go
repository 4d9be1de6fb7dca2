// Screenroom's server: the pinned PocketBase module as a Go framework. The schema is JS migrations
// (server/pb_migrations, run by PocketBase's JSVM, which loads nothing else); every other server behaviour is Go, one
// package per domain under internal/, each bound here by its Register(app) (docs/architecture.md says which package
// holds what). Built by scripts/lib/pocketbase.mjs (`npm run pocketbase:build`).
package main

import (
	"screenroom/server/internal/accounts"
	"screenroom/server/internal/analytics"
	"screenroom/server/internal/answers"
	"screenroom/server/internal/bulk"
	"screenroom/server/internal/candidates"
	"screenroom/server/internal/companies"
	"screenroom/server/internal/devroutes"
	"screenroom/server/internal/interview"
	"screenroom/server/internal/jobs"
	"screenroom/server/internal/lifecycle"
	"screenroom/server/internal/mail"
	"screenroom/server/internal/messages"
	"screenroom/server/internal/metrics"
	"screenroom/server/internal/pipeline"
	"screenroom/server/internal/platform"
	"screenroom/server/internal/questions"
	"screenroom/server/internal/replication"
	"screenroom/server/internal/review"
	"screenroom/server/internal/search"
	"screenroom/server/internal/takes"
	"screenroom/server/internal/webhooks"

	"log"
	"os"
	"runtime/debug"
	// the zone database inside the binary: e-mails state times in each company's zone (companies.timeZone), and a
	// server without the system's zoneinfo (a container, a stripped install) would otherwise state them all in UTC
	_ "time/tzdata"

	"github.com/pocketbase/pocketbase"
	"github.com/pocketbase/pocketbase/plugins/jsvm"
	"github.com/pocketbase/pocketbase/plugins/migratecmd"
)

func main() {
	// The garbage collector runs when the heap has grown by 200% since the last collection rather than Go's default
	// 100% (GOGC in the environment still decides). A read makes short-lived garbage only; collecting half as often
	// gave the company home's jobs list 12-25% more requests a second at ten times the bench data (issue 20 point 3),
	// the other reads 0-15%, for a higher peak memory under fifty uploads at once (scripts/bench/fifty-at-once.mjs:
	// 127 → 169 MB on the path of parts, 175 → 251 MB on the resume path; budget 512 MB).
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	app := pocketbase.NewWithConfig(pocketbase.Config{DBConnect: platform.DurableDBConnect})

	var migrationsDir, publicDir string
	var automigrate, indexFallback bool
	flags := app.RootCmd.PersistentFlags()
	flags.StringVar(&migrationsDir, "migrationsDir", "", "the directory with the user defined migrations")
	flags.BoolVar(&automigrate, "automigrate", true, "enable/disable auto migrations")
	flags.StringVar(&publicDir, "publicDir", "./pb_public", "the directory to serve static files")
	flags.BoolVar(&indexFallback, "indexFallback", true, "fallback the request to index.html on missing static path")
	app.RootCmd.ParseFlags(os.Args[1:])

	// The JSVM runs the migrations only: no file name matches the hooks pattern, so no hook is ever loaded, wherever
	// its folder would be (the rule: server behaviour is Go, docs/decisions/one-server-in-go.md).
	jsvm.MustRegister(app, jsvm.Config{
		MigrationsDir:     migrationsDir,
		HooksFilesPattern: `^$`,
		HooksWatch:        false,
	})
	migratecmd.MustRegister(app, app.RootCmd, migratecmd.Config{
		TemplateLang: migratecmd.TemplateLangJS,
		Automigrate:  automigrate,
		Dir:          migrationsDir,
	})

	// each domain's routes and hooks; platform first (durable writes, the query guard), takes before the others
	// (a submitted take's file is moved into storage by the same save the durable hook syncs)
	platform.Register(app)
	metrics.Register(app)
	replication.Register(app)
	takes.Register(app)
	review.Register(app)
	accounts.Register(app)
	mail.Register(app)
	webhooks.Register(app)
	lifecycle.Register(app)
	search.Register(app)
	jobs.Register(app)
	pipeline.Register(app)
	analytics.Register(app)
	questions.Register(app)
	interview.Register(app)
	answers.Register(app)
	candidates.Register(app)
	bulk.Register(app)
	messages.Register(app)
	companies.Register(app)
	devroutes.Register(app)
	// the operator's commands beside `serve` (docs/operations.md)
	app.RootCmd.AddCommand(takes.RequeueCommand(app))

	// the SPA's files, with their headers, after every other route (static.go)
	platform.ServeStatic(app, publicDir, indexFallback)

	if err := app.Start(); err != nil {
		log.Fatal(err)
	}
}
