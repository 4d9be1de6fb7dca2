package interview

import (
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"screenroom/server/internal/jobs"
	"screenroom/server/internal/platform"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// The times and takes a candidate is given (extra time, extra takes), whether the interview is closed (deadline,
// withdrawn, a closed job), the grace window for what was under way before the deadline, and the refusals with their
// machine-readable codes: decided here for every route that lets a candidate start or send something (the interview
// read, consent and openings; staged parts; answers). Every time is the server's clock (platform.Now), so a suite's
// own server can move it.

// Grace: what was under way before the deadline (a staged take whose first part arrived before it, an answer to a
// question opened before it) may still be sent this long after it, the time staged takes are kept (decisions.md
// "Staged takes").
const Grace = 24 * time.Hour

// TextTolerance: a text answer may arrive this long after its time is up (the network, the client's send queue).
const TextTolerance = 5 * time.Minute

// VideoToleranceSeconds: a video answer may be this much longer than its time (the recorder stops a moment after
// the countdown ends).
const VideoToleranceSeconds = 3

// ProbeSeconds is how long ffprobe may take to read an answer's packets before the length check gives up (and
// accepts).
const ProbeSeconds = 20

const (
	WithdrawnMessage = "This invitation was withdrawn."
	TimeOverMessage  = "The time to answer this question is over."
	TooLongMessage   = "This answer is longer than the time allowed."
)

// IsUntimed reports whether the candidate was given unlimited time: no countdown, no length limit.
func IsUntimed(candidate *core.Record) bool {
	return candidate.GetString("extraTime") == "unlimited"
}

// EffectiveSeconds is what the candidate is given for base seconds: × 1.5 or × 2 rounded up; the base itself with
// unlimited time.
func EffectiveSeconds(base int, candidate *core.Record) int {
	factor := 1.0
	switch candidate.GetString("extraTime") {
	case "1.5":
		factor = 1.5
	case "2":
		factor = 2
	}
	return int(math.Ceil(float64(base) * factor))
}

// EffectiveTimeout is the answer seconds of question (a questions record) for the candidate.
func EffectiveTimeout(question, candidate *core.Record) int {
	return EffectiveSeconds(question.GetInt("timeout"), candidate)
}

// EffectivePreparation is the preparation seconds of a video question (its video_questions record) for the
// candidate; 0 without one.
func EffectivePreparation(videoKind, candidate *core.Record) int {
	if videoKind == nil {
		return 0
	}
	return EffectiveSeconds(videoKind.GetInt("preparation"), candidate)
}

// MaxTakes is the takes the candidate has for a question: its video_questions record's takes (at least 1) plus
// extraTakes; 1 for a text question (videoKind nil).
func MaxTakes(videoKind, candidate *core.Record) int {
	if videoKind == nil {
		return 1
	}
	return max(1, videoKind.GetInt("takes")) + max(0, candidate.GetInt("extraTakes"))
}

// FormatDay is "24 November 2026" (UTC) of a stored date's text.
func FormatDay(text string) string {
	t, _ := platform.ParseDBTime(text)
	return t.Format("2 January 2006")
}

// Refusal is a 403 with {interview: {code, message}} in its data: the client reads the code, the candidate the
// message.
func Refusal(code, message string) *router.ApiError {
	return router.NewApiError(http.StatusForbidden, message, map[string]any{"interview": validation.NewError(code, message)})
}

// DeadlinePassedError: the interview closed at the candidate's deadline.
func DeadlinePassedError(candidate *core.Record) *router.ApiError {
	return Refusal("deadline_passed", "This interview closed on "+FormatDay(candidate.GetString("deadline"))+".")
}

// WithdrawnError: the candidate's invitation was withdrawn.
func WithdrawnError() *router.ApiError {
	return Refusal("withdrawn", WithdrawnMessage)
}

// JobClosedError: the company closed the candidate's job; no grace, as after a withdrawal.
func JobClosedError() *router.ApiError {
	return Refusal("job_closed", jobs.JobClosedMessage)
}

// TimeOverError: a text answer after its time.
func TimeOverError() *router.ApiError {
	return Refusal("time_over", TimeOverMessage)
}

// TooLongError: a video answer longer than its time.
func TooLongError() *router.ApiError {
	return Refusal("answer_too_long", TooLongMessage)
}

// deadlineMs is the candidate's deadline in milliseconds; false without one.
func deadlineMs(candidate *core.Record) (int64, bool) {
	t, ok := platform.ParseDBTime(candidate.GetString("deadline"))
	if !ok {
		return 0, false
	}
	return t.UnixMilli(), true
}

// Closed says why and since when an interview is closed; reason is "withdrawn", "job_closed" or "deadline", at
// when it was withdrawn, when the job was closed, or the deadline.
type Closed struct {
	Reason string `json:"reason"`
	At     string `json:"at"`
}

// ClosedState is whether the interview is closed for the candidate now: nil when open. Closed at the deadline
// itself; the grace window only lets finish what was under way.
func ClosedState(app core.App, candidate *core.Record) *Closed {
	return closedState(candidate, jobs.ClosedJob(app, candidate.GetString("job")), platform.NowMs(app))
}

// closedState: ClosedState with the candidate's job already read (nil or open: not closed by it).
func closedState(candidate, job *core.Record, nowMs int64) *Closed {
	if candidate.GetBool("withdrawn") {
		return &Closed{Reason: "withdrawn", At: candidate.GetString("withdrawnAt")}
	}
	if jobs.IsClosed(job) {
		return &Closed{Reason: "job_closed", At: job.GetString("closedAt")}
	}
	if deadline, ok := deadlineMs(candidate); ok && nowMs >= deadline {
		return &Closed{Reason: "deadline", At: candidate.GetString("deadline")}
	}
	return nil
}

// RequireAnswerable refuses (403 withdrawn / job_closed / deadline_passed) what the candidate sends now, unless the
// interview is open, or it is the deadline's grace window and what is sent belongs to something that started before
// the deadline at started (the zero time: something new, which never has grace). Withdrawn and a closed job have no
// grace.
func RequireAnswerable(app core.App, candidate *core.Record, started time.Time) error {
	if candidate.GetBool("withdrawn") {
		return WithdrawnError()
	}
	if jobs.ClosedJob(app, candidate.GetString("job")) != nil {
		return JobClosedError()
	}
	deadline, ok := deadlineMs(candidate)
	if !ok {
		return nil
	}
	now := platform.NowMs(app)
	if now < deadline {
		return nil
	}
	if !started.IsZero() && started.UnixMilli() < deadline && now <= deadline+Grace.Milliseconds() {
		return nil
	}
	return DeadlinePassedError(candidate)
}

// OpenedAt is when the candidate first opened the question (question_progress.openedAt); the zero time if never.
func OpenedAt(app core.App, candidateID, questionID string) time.Time {
	row := FindProgress(app, candidateID, questionID)
	if row == nil {
		return time.Time{}
	}
	t, _ := platform.ParseDBTime(row.GetString("openedAt"))
	return t
}

// RequireTextInTime refuses (time_over) a text answer arriving now later than its opening + the candidate's time +
// TextTolerance. Never opened (opened zero): judged from its arrival (allowed). Unlimited time: never refused.
func RequireTextInTime(app core.App, candidate, question *core.Record, opened time.Time) error {
	if IsUntimed(candidate) || opened.IsZero() {
		return nil
	}
	limit := opened.UnixMilli() + int64(EffectiveTimeout(question, candidate))*1000 + TextTolerance.Milliseconds()
	if platform.NowMs(app) > limit {
		return TimeOverError()
	}
	return nil
}

// RequireVideoInTime refuses (answer_too_long) a video answer whose file lasts seconds (its decoded length, by the
// media probe, given ProbeSeconds) when longer than the candidate's time + VideoToleranceSeconds; seconds nil (the
// probe could not read the file) is accepted: the media worker's check reports broken files.
func RequireVideoInTime(candidate, question *core.Record, seconds *float64) error {
	if IsUntimed(candidate) || seconds == nil {
		return nil
	}
	if *seconds > float64(EffectiveTimeout(question, candidate)+VideoToleranceSeconds) {
		return TooLongError()
	}
	return nil
}

// RefusePastDeadline: a candidate's deadline as a manager sets it (records API): when set on a new record or
// changed, it must be in the future, else 400 on the field. Clearing it is always allowed.
func RefusePastDeadline(app core.App, record *core.Record) error {
	deadline := record.GetString("deadline")
	changed := record.IsNew() || deadline != record.Original().GetString("deadline")
	if deadline == "" || !changed {
		return nil
	}
	if t, ok := platform.ParseDBTime(deadline); !ok || t.UnixMilli() <= platform.NowMs(app) {
		return platform.FieldError("deadline", "The deadline must be in the future.", "validation_past_deadline")
	}
	return nil
}

// StoredFilePath is where a stored record's file is on the local storage (PocketBase's pb_data/storage).
func StoredFilePath(app core.App, record *core.Record, field string) string {
	return filepath.Join(app.DataDir(), "storage", record.BaseFilesPath(), record.GetString(field))
}

// WithStoredFile calls fn with a local path to a stored record's file and returns what it returns. On local storage
// that is the stored file itself; on S3 a probe cannot read the bucket, so the object is streamed through
// PocketBase's filesystem (the same one the save wrote it with, so inside the transaction it is already there) into
// a temp file, removed afterwards.
func WithStoredFile(app core.App, record *core.Record, field string, fn func(path string) error) error {
	if !app.Settings().S3.Enabled {
		return fn(StoredFilePath(app, record, field))
	}
	name := record.GetString(field)
	fsys, err := app.NewFilesystem()
	if err != nil {
		return err
	}
	defer fsys.Close()
	reader, err := fsys.GetReader(record.BaseFilesPath() + "/" + name)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp("", "screenroom-probe-*"+filepath.Ext(name))
	if err != nil {
		reader.Close()
		return err
	}
	defer os.Remove(tmp.Name())
	_, copyErr := io.Copy(tmp, reader)
	reader.Close()
	if err := tmp.Close(); copyErr == nil {
		copyErr = err
	}
	if copyErr != nil {
		return copyErr
	}
	return fn(tmp.Name())
}
