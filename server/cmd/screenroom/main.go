// Screenroom's PocketBase: the pinned PocketBase module with its JS VM (pb_hooks, pb_migrations) and static files,
// as examples/base/main.go sets them up, plus what a JS hook cannot do (durable.go, storage_full.go):
//   - a confirmed write is on stable storage: SQLite commits with synchronous=FULL, and every uploaded file, its
//     folder and the folders above it are fsynced before the save that stores them returns;
//   - storage exhaustion (SQLite's "database or disk is full", ENOSPC) is answered 507 with Retry-After, a
//     temporary condition the client retries, and logged once;
//   - clients' filters and sorts stay inside the records they may list (query_guard.go: the filter oracle);
//   - a candidate's rating and decision are shown to its job's company's managers only (candidate_enrich.go), a
//     user's company choice and preferences to the user only (users_enrich.go);
//   - outgoing mail is queued by the hooks and sent at a steady pace with retries (mail_queue.go);
//   - reads the manager's screens make most, each with one access decision: the candidate review (review.go), the
//     jobs list's counts (job_counts.go), a page of a job's pipeline (pipeline_page.go), the questions list
//     (questions_list.go);
//   - a candidate's data is exported as a zip streamed from the file storage (export.go);
//   - the transcript search route (search.go), ranked with weights it is given, not by a walk of the whole index
//     (fts5_rank.go);
//   - every database connection keeps its prepared statements (kept_statements.go);
//   - a successful read is not written to the request log (request_log.go);
//   - failed sign-ins are counted per account, from any client address, and slow then refuse its sign-in
//     (signin_throttle.go).
//
// Built by scripts/lib/pocketbase.mjs (`npm run pocketbase:build`).
package main

import (
	"screenroom/server/internal/accounts"
	"screenroom/server/internal/answers"
	"screenroom/server/internal/candidates"
	"screenroom/server/internal/companies"
	"screenroom/server/internal/devroutes"
	"screenroom/server/internal/interview"
	"screenroom/server/internal/jobs"
	"screenroom/server/internal/lifecycle"
	"screenroom/server/internal/mail"
	"screenroom/server/internal/pipeline"
	"screenroom/server/internal/platform"
	"screenroom/server/internal/questions"
	"screenroom/server/internal/review"
	"screenroom/server/internal/search"
	"screenroom/server/internal/takes"
	"screenroom/server/internal/webhooks"

	"log"
	"os"
	"runtime/debug"

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

	var hooksDir, migrationsDir, publicDir string
	var hooksWatch, automigrate, indexFallback bool
	var hooksPool int
	flags := app.RootCmd.PersistentFlags()
	flags.StringVar(&hooksDir, "hooksDir", "", "the directory with the JS app hooks")
	flags.BoolVar(&hooksWatch, "hooksWatch", true, "auto restart the app on pb_hooks file change")
	flags.IntVar(&hooksPool, "hooksPool", 15, "the total prewarm goja.Runtime instances for the JS app hooks execution")
	flags.StringVar(&migrationsDir, "migrationsDir", "", "the directory with the user defined migrations")
	flags.BoolVar(&automigrate, "automigrate", true, "enable/disable auto migrations")
	flags.StringVar(&publicDir, "publicDir", "./pb_public", "the directory to serve static files")
	flags.BoolVar(&indexFallback, "indexFallback", true, "fallback the request to index.html on missing static path")
	app.RootCmd.ParseFlags(os.Args[1:])

	jsvm.MustRegister(app, jsvm.Config{
		MigrationsDir: migrationsDir,
		HooksDir:      hooksDir,
		HooksWatch:    hooksWatch,
		HooksPoolSize: hooksPool,
	})
	migratecmd.MustRegister(app, app.RootCmd, migratecmd.Config{
		TemplateLang: migratecmd.TemplateLangJS,
		Automigrate:  automigrate,
		Dir:          migrationsDir,
	})

	// each domain's routes and hooks; platform first (durable writes, the query guard), takes before the others
	// (a submitted take's file is moved into storage by the same save the durable hook syncs)
	platform.Register(app)
	takes.Register(app)
	review.Register(app)
	accounts.Register(app)
	mail.Register(app)
	webhooks.Register(app)
	lifecycle.Register(app)
	search.Register(app)
	jobs.Register(app)
	pipeline.Register(app)
	questions.Register(app)
	interview.Register(app)
	answers.Register(app)
	candidates.Register(app)
	companies.Register(app)
	devroutes.Register(app)

	// the SPA's files, with their headers, after every other route (static.go)
	platform.ServeStatic(app, publicDir, indexFallback)

	if err := app.Start(); err != nil {
		log.Fatal(err)
	}
}
