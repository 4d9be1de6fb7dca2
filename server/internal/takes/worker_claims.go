package takes

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/pocketbase/pocketbase/tools/types"
)

// The media worker's job claims. A claim is taken in one transaction (PocketBase serialises writes), so of two
// workers asking for the same answer exactly one gets it; a claim held longer than its lease is treated as abandoned
// (a worker that crashed mid-job); a worker restarted under the same name takes its own unfinished job back at once.
// Each claim counts as an attempt; an answer that used up its attempts is marked failed. A worker whose job was cut
// by a lost server takes its own claim up again with `resume`: not a new attempt, whatever its lease.
func registerWorkerClaims(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/media/video-answers/{id}/claim", claimVideoAnswer).Bind(apis.RequireSuperuserAuth())
		return se.Next()
	})

	// A worker writes its result with `claimedBy` = its claim ("worker#run"): if its claim was lost meanwhile (it ran
	// past its lease and another worker took over), the write is refused instead of overwriting the other worker's job.
	app.OnRecordUpdateRequest("video_answers").BindFunc(func(e *core.RecordRequestEvent) error {
		info, err := e.RequestInfo()
		if err != nil {
			return err
		}
		if expected, ok := info.Body["claimedBy"]; ok && expected != nil && expected != "" {
			current, err := e.App.FindRecordById("video_answers", e.Record.Id)
			if err != nil {
				return err
			}
			if current.GetString("transcriptClaimedBy") != platform.JSString(expected) {
				return router.NewBadRequestError("This worker no longer holds the claim on this video answer.", nil)
			}
		}
		return e.Next()
	})
}

// claimVideoAnswer: POST /api/screenroom/media/video-answers/{id}/claim {worker, run, leaseSeconds, maxAttempts,
// resume?} (superusers). `worker` is the worker's stable name, `run` tells its process runs apart; the claim is
// stored as "worker#run". `resume: true` says the asking run may already hold the claim (its job was cut, or the
// reply to its claim lost, when the server went away): if it does, the claim is renewed and the attempt goes on
// uncounted; if not, it is an ordinary claim.
// 200 {claimed: true, record, language} | 409 {message} when someone else holds it, or it is not pending. `language`
// is the answer's job's (platform.JobLanguage: English when the job has none), the language the worker transcribes
// it in.
func claimVideoAnswer(e *core.RequestEvent) error {
	id := e.Request.PathValue("id")
	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	body := info.Body
	worker := strings.TrimSpace(platform.JSText(body["worker"]))
	run := strings.TrimSpace(platform.JSText(body["run"]))
	leaseSeconds := math.Max(1, jsNumberOr(body["leaseSeconds"], 600))
	maxAttempts := math.Max(1, jsNumberOr(body["maxAttempts"], 3))
	resume := body["resume"] == true
	if worker == "" || run == "" || strings.Contains(worker, "#") {
		return router.NewBadRequestError("worker and run are required.", nil)
	}
	claim := worker + "#" + run

	var claimed *core.Record
	gaveUp := false
	err = e.App.RunInTransaction(func(txApp core.App) error {
		claimed, gaveUp = nil, false
		record := platform.FindByIdOrNil(txApp, "video_answers", id)
		if record == nil {
			return router.NewNotFoundError("This video answer does not exist", nil)
		}
		if record.GetString("transcriptStatus") != "pending" {
			return router.NewApiError(http.StatusConflict, "This video answer is not pending", nil)
		}
		holder := record.GetString("transcriptClaimedBy")
		if resume && holder == claim {
			record.Set("transcriptClaimedAt", types.NowDateTime())
			if err := txApp.Save(record); err != nil {
				return err
			}
			claimed = record
			return nil
		}
		at := record.GetDateTime("transcriptClaimedAt")
		now := time.Now().Unix()
		// A claim under the asking worker's own name but another run is from its previous process, which died
		// mid-job: take it back at once. The same run asking twice is refused like anyone else (unless it resumes).
		previousRun := strings.HasPrefix(holder, worker+"#") && holder != claim
		held := holder != "" && !previousRun && !at.IsZero() && float64(now-at.Time().Unix()) < leaseSeconds
		if held {
			return router.NewApiError(http.StatusConflict, "Claimed by "+holder, nil)
		}
		attempts := record.GetInt("transcriptAttempts")
		if float64(attempts) >= maxAttempts {
			// committed: the answer is failed for good, and the asking worker gets nothing
			record.Set("transcriptStatus", "failed")
			record.Set("transcriptClaimedBy", "")
			if record.GetString("transcriptError") == "" {
				record.Set("transcriptError", "Gave up after "+strconv.Itoa(attempts)+" attempts")
			}
			// no failure recorded by a worker: each attempt ended without one (its worker died mid-job, every time)
			if record.GetString("transcriptFailure") == "" {
				record.Set("transcriptFailure", "worker_stopped")
			}
			if err := txApp.Save(record); err != nil {
				return err
			}
			gaveUp = true
			return nil
		}
		record.Set("transcriptClaimedBy", claim)
		record.Set("transcriptClaimedAt", types.NowDateTime())
		record.Set("transcriptAttempts", attempts+1)
		if err := txApp.Save(record); err != nil {
			return err
		}
		claimed = record
		return nil
	})
	if err != nil {
		return err
	}
	if gaveUp {
		return router.NewApiError(http.StatusConflict, "Attempts used up: marked failed", nil)
	}
	return e.JSON(http.StatusOK, map[string]any{"claimed": true, "record": claimed, "language": transcriptLanguage(e.App, claimed)})
}

// transcriptLanguage is the language of a video answer's job. Nothing of it missing (a cascade is deleting the
// candidate): English, and the worker's write is refused with the record anyway.
func transcriptLanguage(app core.App, video *core.Record) string {
	answer := platform.FindByIdOrNil(app, "answers", video.GetString("answer"))
	if answer == nil {
		return platform.DefaultLanguage
	}
	candidate := platform.FindByIdOrNil(app, "candidates", answer.GetString("candidate"))
	if candidate == nil {
		return platform.DefaultLanguage
	}
	return platform.JobLanguage(platform.FindByIdOrNil(app, "jobs", candidate.GetString("job")))
}

// jsNumberOr is JavaScript's Number(value) || fallback for what a JSON body holds.
func jsNumberOr(value any, fallback float64) float64 {
	if n := platform.JSNumber(value); n != 0 && !math.IsNaN(n) {
		return n
	}
	return fallback
}
