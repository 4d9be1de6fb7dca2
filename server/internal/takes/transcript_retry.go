package takes

import (
	"fmt"
	"net/http"
	"os"
	"strings"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/spf13/cobra"
)

// A failed transcript asked for again: by a manager of the answer's job from the review ('Try again'), or by an
// operator for every failed answer at once (`screenroom requeue-transcripts`, `npm run requeue`). Both put the answer
// back where it was when it was stored: pending, no attempt used, no reason, no claim. The media worker takes it like
// any pending answer (its realtime event, or its next scan when the command wrote it from another process).

// requeueTranscript resets a failed video answer to pending in app (a transaction's app when in one).
func requeueTranscript(app core.App, video *core.Record) error {
	video.Set("transcriptStatus", "pending")
	video.Set("transcriptAttempts", 0)
	video.Set("transcriptError", "")
	video.Set("transcriptFailure", "")
	video.Set("transcriptClaimedBy", "")
	return app.Save(video)
}

// RequeueFailedTranscripts requeues the failed transcripts: every one when answerID is empty, else that video answer
// only (an error when it does not exist or has not failed). Returns how many it requeued.
func RequeueFailedTranscripts(app core.App, answerID string) (int, error) {
	count := 0
	err := app.RunInTransaction(func(txApp core.App) error {
		count = 0
		var videos []*core.Record
		if answerID != "" {
			video := platform.FindByIdOrNil(txApp, "video_answers", answerID)
			if video == nil {
				return fmt.Errorf("no video answer has the id %q", answerID)
			}
			if status := video.GetString("transcriptStatus"); status != "failed" {
				return fmt.Errorf("the transcript of video answer %s has not failed (it is %q): nothing to requeue", answerID, status)
			}
			videos = []*core.Record{video}
		} else {
			var err error
			videos, err = txApp.FindAllRecords("video_answers", dbx.HashExp{"transcriptStatus": "failed"})
			if err != nil {
				return err
			}
		}
		for _, video := range videos {
			if err := requeueTranscript(txApp, video); err != nil {
				return err
			}
			count++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return count, nil
}

func registerTranscriptRetry(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/video-answers/{id}/transcript/retry", retryTranscript)
		return se.Next()
	})
}

// retryTranscript: POST /api/screenroom/video-answers/{id}/transcript/retry, for the verified managers of the answer's
// job (platform.ManagesJob). Anyone else, and an unknown id, gets the same 404 before anything else is decided. A
// transcript that has not failed is refused (400 on transcriptStatus, saying what it is); each retry is taken from
// the manager's RATE_LIMIT_TRANSCRIPT_RETRIES (429 when spent). 200 with the video answer as the manager reads it.
func retryTranscript(e *core.RequestEvent) error {
	notFound := router.NewNotFoundError("The requested resource wasn't found.", nil)
	manager := platform.RequestUser(e)
	if manager == nil || !manager.Verified() {
		return notFound
	}
	video := platform.FindByIdOrNil(e.App, "video_answers", e.Request.PathValue("id"))
	if video == nil {
		return notFound
	}
	answer := platform.FindByIdOrNil(e.App, "answers", video.GetString("answer"))
	if answer == nil {
		return notFound
	}
	candidate := platform.FindByIdOrNil(e.App, "candidates", answer.GetString("candidate"))
	if candidate == nil || !platform.ManagesJob(e.App, candidate.GetString("job"), manager.Id) {
		return notFound
	}
	if err := retryRefusal(video); err != nil {
		return err
	}
	if err := platform.RequireTranscriptRetry(e.App, manager.Id); err != nil {
		return err
	}
	err := e.App.RunInTransaction(func(txApp core.App) error {
		current := platform.FindByIdOrNil(txApp, "video_answers", video.Id)
		if current == nil {
			return notFound
		}
		// another manager's retry, or the worker, may have moved it since it was read
		if err := retryRefusal(current); err != nil {
			return err
		}
		video = current
		return requeueTranscript(txApp, current)
	})
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, video)
}

// retryRefusal is why video's transcript cannot be asked for again (a 400 on transcriptStatus), or nil when it failed.
func retryRefusal(video *core.Record) error {
	const field, code = "transcriptStatus", "validation_not_failed"
	switch video.GetString("transcriptStatus") {
	case "failed":
		return nil
	case "done":
		return platform.FieldError(field, "This answer already has its transcript: there is nothing to try again.", code)
	case "language_unsupported":
		return platform.FieldError(field, "Transcripts in this language need the Whisper-compatible endpoint: trying again would not make one.", code)
	default:
		return platform.FieldError(field, "This transcript is still being made: there is nothing to try again yet.", code)
	}
}

// RequeueCommand is `screenroom requeue-transcripts [--answer ID]`, the operator's requeue (wrapped by
// scripts/requeue.mjs, `npm run requeue`): run beside the serving PocketBase on the same data dir; the worker finds the
// requeued answers at its next scan (WORKER_RESCAN_SECONDS), since a write from this process sends no realtime event.
func RequeueCommand(app core.App) *cobra.Command {
	var answerID string
	command := &cobra.Command{
		Use:          "requeue-transcripts",
		Short:        "Puts failed transcripts back in the media worker's queue (all, or one video answer's with --answer)",
		SilenceUsage: true,
		Run: func(command *cobra.Command, args []string) {
			n, err := RequeueFailedTranscripts(app, strings.TrimSpace(answerID))
			if err != nil {
				fmt.Fprintln(os.Stderr, "requeue-transcripts:", err)
				// the app's Start returns the terminate hooks' error, not the command's: the exit status says it here
				os.Exit(1)
			}
			noun := "transcripts"
			if n == 1 {
				noun = "transcript"
			}
			fmt.Printf("Requeued %d failed %s.\n", n, noun)
		},
	}
	command.Flags().StringVar(&answerID, "answer", "", "the id of one video answer (video_answers) to requeue; all failed ones when absent")
	return command
}
