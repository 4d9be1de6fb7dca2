package devroutes

import (
	"screenroom/server/internal/analytics"

	"fmt"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/filesystem"
	"github.com/spf13/cast"
)

// The benchmark's seeding routes (scripts/bench-seed.mjs), on a server started with SCREENROOM_BENCH_SEED set to the
// path of the video file its video answers carry (scripts/bench/stack.mjs), and there only for superusers; anyone
// else gets the 404 of an unknown path.
const benchSeedSetting = "SCREENROOM_BENCH_SEED"

func registerBenchSeed(app core.App, videoPath string) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/bench-seed", func(e *core.RequestEvent) error { return benchSeedRoute(e, videoPath) })
		se.Router.POST("/api/screenroom/bench-seed/clone", benchCloneRoute)
		se.Router.POST("/api/screenroom/bench-seed/analytics-forget", benchAnalyticsForgetRoute)
		return se.Next()
	})
}

// POST /api/screenroom/bench-seed {records: [{collection, data, update?}]}: hundreds of records a request in one
// transaction, instead of the batch API's 24-50 records a multipart request.
//
// Each record is saved with txApp.Save: the records are validated and every model hook runs (e-mails lower-cased,
// an answer's kind checked against its question, a candidate's status, answeredCount, averageRating and ratingsCount
// kept by the server, the search index's triggers), as for the batch API; what this route skips is what the batch
// API does per request: rules (a superuser's batch skips them too), request hooks (for a superuser they only let the
// write through) and one multipart body with the same small file re-encoded per video answer. A video answer's
// `file: true` stores the file at SCREENROOM_BENCH_SEED (a fresh copy per record, as an upload would be).
func benchSeedRoute(e *core.RequestEvent, videoPath string) error {
	if !e.HasSuperuserAuth() {
		return e.NotFoundError("", nil)
	}
	info, err := e.RequestInfo()
	if err != nil {
		return e.BadRequestError("", err)
	}
	records, ok := info.Body["records"].([]any)
	if !ok || len(records) == 0 || len(records) > 5000 {
		return e.BadRequestError("records must be a list of 1 to 5000 {collection, data}.", nil)
	}
	saved := 0
	err = e.App.RunInTransaction(func(txApp core.App) error {
		collections := map[string]*core.Collection{}
		for _, raw := range records {
			item, _ := raw.(map[string]any)
			name := cast.ToString(item["collection"])
			collection := collections[name]
			if collection == nil {
				found, err := txApp.FindCollectionByNameOrId(name)
				if err != nil {
					return err
				}
				collection = found
				collections[name] = found
			}
			data, _ := item["data"].(map[string]any)
			var record *core.Record
			if id := cast.ToString(data["id"]); id != "" && cast.ToBool(item["update"]) {
				found, err := txApp.FindRecordById(collection, id)
				if err != nil {
					return err
				}
				record = found
			} else {
				record = core.NewRecord(collection)
			}
			for key, value := range data {
				if key == "file" && value == true {
					file, err := filesystem.NewFileFromPath(videoPath)
					if err != nil {
						return err
					}
					record.Set("file", file)
				} else {
					record.Set(key, value)
				}
			}
			if err := txApp.Save(record); err != nil {
				return err
			}
			saved++
		}
		return nil
	})
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, map[string]any{"saved": saved})
}

// POST /api/screenroom/bench-seed/analytics-forget: the analytics drop the figures they keep, so the bench measures
// their first read (every job's rows read again) as often as it likes.
func benchAnalyticsForgetRoute(e *core.RequestEvent) error {
	if !e.HasSuperuserAuth() {
		return e.NotFoundError("", nil)
	}
	analytics.Forget(e.App)
	return e.NoContent(http.StatusNoContent)
}

// a cloned table, the condition that picks the rows to copy, and its relation columns that point at copied rows;
// in the order the copies are made
var benchCloneTables = []struct {
	table, where string
	relations    []string
}{
	{"jobs", "id IN (SELECT old FROM bench_jobs)", nil},
	{"candidates", "job IN (SELECT old FROM bench_jobs)", []string{"job"}},
	{"answers", "candidate IN (SELECT old FROM bench_candidates)", []string{"candidate"}},
	{"text_answers", "answer IN (SELECT old FROM bench_answers)", []string{"answer"}},
	{"video_answers", "answer IN (SELECT old FROM bench_answers)", []string{"answer"}},
	{"ratings", "candidate IN (SELECT old FROM bench_candidates)", []string{"answer", "candidate"}},
	{"comments", "candidate IN (SELECT old FROM bench_candidates)", []string{"candidate"}},
	{"question_progress", "candidate IN (SELECT old FROM bench_candidates)", []string{"candidate"}},
}

// the map of old to new ids each relation column points through
var benchCloneMaps = map[string]string{"job": "bench_jobs", "candidate": "bench_candidates", "answer": "bench_answers"}

var benchMapTables = []string{"bench_jobs", "bench_candidates", "bench_answers", "bench_map"}

// POST /api/screenroom/bench-seed/clone {jobs: [ids], copy: n}: the data set at --scale=N is its first tenth, written
// record by record above, and N-1 copies of it made here in SQL, one copy a request in one transaction: the given jobs
// with their candidates, answers (text and video, the video files copied in storage), ratings, comments and question
// progress, each row as the hooks stored it (a candidate's status, answeredCount, averageRating and ratingsCount are
// those of the answers and ratings copied with it) under a new random id, the relations pointing at the copies. A
// copy's candidates get new keys (40 random letters and digits) and e-mails `copy{n}-{e-mail}`, its jobs the title
// `{title} · copy {n}`. The search index's triggers index the copied answers as they do any insert.
func benchCloneRoute(e *core.RequestEvent) error {
	if !e.HasSuperuserAuth() {
		return e.NotFoundError("", nil)
	}
	info, err := e.RequestInfo()
	if err != nil {
		return e.BadRequestError("", err)
	}
	jobs, _ := info.Body["jobs"].([]any)
	rawCopy, given := info.Body["copy"]
	copyNumber, isNumber := jsNumber(rawCopy, given)
	if len(jobs) == 0 || !isNumber || copyNumber != math.Trunc(copyNumber) || copyNumber < 1 {
		return e.BadRequestError("jobs and copy are required.", nil)
	}
	copyN := int64(copyNumber)

	counts := map[string]int{}
	err = e.App.RunInTransaction(func(txApp core.App) error {
		run := func(sql string, params dbx.Params) error {
			_, err := txApp.DB().NewQuery(sql).Bind(params).Execute()
			return err
		}
		for _, m := range benchMapTables {
			if err := run("CREATE TEMP TABLE IF NOT EXISTS "+m+" (old TEXT PRIMARY KEY, new TEXT NOT NULL)", nil); err != nil {
				return err
			}
			if err := run("DELETE FROM "+m, nil); err != nil {
				return err
			}
		}
		for _, job := range jobs {
			if err := run("INSERT INTO bench_jobs (old, new) SELECT id, lower(hex(randomblob(7))) || 'j' FROM jobs WHERE id = {:id}", dbx.Params{"id": cast.ToString(job)}); err != nil {
				return err
			}
		}
		if err := run("INSERT INTO bench_candidates (old, new) SELECT id, lower(hex(randomblob(7))) || 'c' FROM candidates WHERE job IN (SELECT old FROM bench_jobs)", nil); err != nil {
			return err
		}
		if err := run("INSERT INTO bench_answers (old, new) SELECT id, lower(hex(randomblob(7))) || 'a' FROM answers WHERE candidate IN (SELECT old FROM bench_candidates)", nil); err != nil {
			return err
		}

		type fileCopy struct{ from, to, file string }
		var files []fileCopy
		for _, t := range benchCloneTables {
			var columns []string
			if err := txApp.DB().NewQuery("SELECT name FROM pragma_table_info('" + t.table + "')").Column(&columns); err != nil {
				return err
			}
			// this table's own ids: the maps above for jobs, candidates and answers, a fresh one for the others
			own := "bench_map"
			switch t.table {
			case "jobs":
				own = "bench_jobs"
			case "candidates":
				own = "bench_candidates"
			case "answers":
				own = "bench_answers"
			}
			if own == "bench_map" {
				if err := run("DELETE FROM bench_map", nil); err != nil {
					return err
				}
				if err := run("INSERT INTO bench_map (old, new) SELECT id, lower(hex(randomblob(7))) || 'x' FROM "+t.table+" WHERE "+t.where, nil); err != nil {
					return err
				}
			}
			names := make([]string, len(columns))
			values := make([]string, len(columns))
			for i, name := range columns {
				names[i] = "[" + name + "]"
				switch {
				case name == "id":
					values[i] = "m.new"
				case slices.Contains(t.relations, name):
					values[i] = fmt.Sprintf("(SELECT new FROM %s WHERE old = t.%s)", benchCloneMaps[name], name)
				case t.table == "jobs" && name == "title":
					values[i] = "t.title || ' · copy ' || {:copy}"
				case t.table == "candidates" && name == "email":
					values[i] = "'copy' || {:copy} || '-' || t.email"
				case t.table == "candidates" && name == "secret":
					// 40 random letters and digits, as the migration's pattern wants
					values[i] = "lower(hex(randomblob(20)))"
				default:
					values[i] = "t.[" + name + "]"
				}
			}
			insert := "INSERT INTO " + t.table + " (" + strings.Join(names, ", ") + ") SELECT " + strings.Join(values, ", ") +
				" FROM " + t.table + " t JOIN " + own + " m ON m.old = t.id"
			if err := run(insert, dbx.Params{"copy": copyN}); err != nil {
				return err
			}
			var n int
			if err := txApp.DB().NewQuery("SELECT count(*) FROM " + own).Row(&n); err != nil {
				return err
			}
			counts[t.table] = n
			if t.table == "video_answers" {
				var rows []struct {
					Old  string `db:"old"`
					New  string `db:"new"`
					File string `db:"file"`
				}
				if err := txApp.DB().NewQuery("SELECT m.old AS old, m.new AS new, t.file AS file FROM video_answers t JOIN bench_map m ON m.old = t.id").All(&rows); err != nil {
					return err
				}
				for _, r := range rows {
					files = append(files, fileCopy{r.Old, r.New, r.File})
				}
			}
		}
		// the copied video answers' files, beside their records as an upload would put them (linked: see linkOrCopy)
		collection, err := txApp.FindCollectionByNameOrId("video_answers")
		if err != nil {
			return err
		}
		storage := filepath.Join(txApp.DataDir(), "storage", collection.Id)
		for _, f := range files {
			if f.file == "" {
				continue
			}
			if err := os.MkdirAll(filepath.Join(storage, f.to), 0o755); err != nil {
				return err
			}
			if err := linkOrCopy(filepath.Join(storage, f.from, f.file), filepath.Join(storage, f.to, f.file)); err != nil {
				return err
			}
		}
		for _, m := range benchMapTables {
			if err := run("DROP TABLE "+m, nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, map[string]any{"copy": copyN, "counts": counts})
}

// linkOrCopy makes the copy's file a hard link to the original where the file system allows it, else a copy: stored
// files are never changed in place (a new file gets a new name, a deleted record's file loses one link), and at
// --scale=100 the copies would be 297,000 files of 15 KB, 4.5 GB written one by one.
func linkOrCopy(from, to string) error {
	if err := os.Link(from, to); err == nil {
		return nil
	}
	content, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, content, 0o644)
}
