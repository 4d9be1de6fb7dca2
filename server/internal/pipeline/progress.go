package pipeline

import (
	"strings"
	"time"

	"screenroom/server/internal/platform"
	"screenroom/server/internal/webhooks"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// What the pipeline shows of each candidate is kept by the server: its progress (status, answeredCount, startedAt,
// completedAt) from its answers and its job's questions, and its rating (averageRating, ratingsCount) from the
// managers' ratings. Each is one SQL UPDATE that derives the values from the stored rows, never from what a hook was
// told, so two writers racing (two answers, two ratings) both end with the same, right values: whichever UPDATE runs
// last reads every committed row. Inside a transaction (the answers route, a batch) pass its app: the candidate's row
// then changes with the answer, or not at all.

// dbNow is PocketBase's datetime text of the system clock (not the test clock), as the stamps of these fields always
// were.
func dbNow() string {
	return platform.DBTime(time.Now())
}

// For each candidate the subquery selects: how many answers it has at all, how many of its job's current questions
// it answered, how many questions the job has, and when its first answer came. answers has a unique index on
// (candidate, question), so each count reads the candidate's few index entries; nothing scans.
// status: invited with no answer at all, completed once every question of the job is answered, else started.
// completedAt: kept while the candidate stays completed, now (the server's clock) when it becomes completed, ""
// otherwise.
const progressSQL = `
UPDATE candidates SET
  answeredCount = s.answered,
  startedAt = s.firstAt,
  status = CASE
    WHEN s.total = 0 THEN 'invited'
    WHEN s.questions > 0 AND s.answered >= s.questions THEN 'completed'
    ELSE 'started' END,
  completedAt = CASE
    WHEN s.total > 0 AND s.questions > 0 AND s.answered >= s.questions
    THEN (CASE WHEN candidates.status = 'completed' AND candidates.completedAt != '' THEN candidates.completedAt ELSE {:completedNow} END)
    ELSE '' END,
  updated = {:now}
FROM (
  SELECT c.id AS id,
    (SELECT count(*) FROM answers a WHERE a.candidate = c.id) AS total,
    (SELECT count(*) FROM answers a WHERE a.candidate = c.id
       AND a.question IN (SELECT q.value FROM json_each(CASE WHEN json_valid(j.questions) THEN j.questions ELSE '[]' END) q)) AS answered,
    (CASE WHEN json_valid(j.questions) THEN json_array_length(j.questions) ELSE 0 END) AS questions,
    COALESCE((SELECT min(a.created) FROM answers a WHERE a.candidate = c.id), '') AS firstAt
  FROM candidates c JOIN jobs j ON j.id = c.job
  WHERE %WHERE%
) AS s
WHERE candidates.id = s.id
  AND (candidates.answeredCount IS NOT s.answered OR candidates.startedAt IS NOT s.firstAt
       OR candidates.status IS NOT (CASE WHEN s.total = 0 THEN 'invited'
                                         WHEN s.questions > 0 AND s.answered >= s.questions THEN 'completed'
                                         ELSE 'started' END))`

type candidateStatus struct {
	Id     string `db:"id"`
	Status string `db:"status"`
}

// recomputeProgress runs the progress UPDATE for the candidates `where` selects and records the webhook events of
// the statuses it changed: candidate.started when one leaves invited, candidate.completed when one becomes completed
// (both, in that order, for a one-question job). The statuses before and after are read in the same transaction as
// the UPDATE (the caller's, or one of its own), so each change is seen, and announced, by exactly one writer; a
// candidate that goes back (a question added to its job) and completes again is announced again.
func recomputeProgress(app core.App, where string, params dbx.Params) error {
	work := func(txApp core.App) error {
		statuses := func() ([]candidateStatus, error) {
			var rows []candidateStatus
			err := txApp.DB().
				NewQuery("SELECT c.id AS id, COALESCE(c.status, '') AS status FROM candidates c WHERE " + where).
				Bind(params).
				All(&rows)
			return rows, err
		}
		before, err := statuses()
		if err != nil {
			return err
		}
		was := make(map[string]string, len(before))
		for _, row := range before {
			was[row.Id] = row.Status
		}
		// completedAt is on the server's clock (the test clock in tests), as the other stamps the funnel's times
		// are measured from (questionOpenedAt, the reminders): the analytics' time to complete
		bound := dbx.Params{"now": dbNow(), "completedNow": platform.NowText(txApp)}
		for key, value := range params {
			bound[key] = value
		}
		if _, err := txApp.DB().NewQuery(strings.Replace(progressSQL, "%WHERE%", where, 1)).Bind(bound).Execute(); err != nil {
			return err
		}
		after, err := statuses()
		if err != nil {
			return err
		}
		for _, row := range after {
			previous := was[row.Id]
			if previous == "" {
				previous = "invited"
			}
			if row.Status == previous {
				continue
			}
			if previous == "invited" && (row.Status == "started" || row.Status == "completed") {
				if err := webhooks.RecordProgressEvent(txApp, "candidate.started", row.Id); err != nil {
					return err
				}
			}
			if row.Status == "completed" {
				if err := webhooks.RecordProgressEvent(txApp, "candidate.completed", row.Id); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if app.IsTransactional() {
		return work(app)
	}
	return app.RunInTransaction(work)
}

// RecomputeCandidateProgress recomputes one candidate's progress from its answers (after an answer is stored or
// deleted), with the webhook events of a changed status.
func RecomputeCandidateProgress(app core.App, candidateID string) error {
	if candidateID == "" {
		return nil
	}
	return recomputeProgress(app, "c.id = {:candidate}", dbx.Params{"candidate": candidateID})
}

// RecomputeJobProgress recomputes the progress of every candidate of a job (after its questions changed): one UPDATE.
func RecomputeJobProgress(app core.App, jobID string) error {
	if jobID == "" {
		return nil
	}
	return recomputeProgress(app, "c.job = {:job}", dbx.Params{"job": jobID})
}

// averageRating: the average over the candidate's rated answers of each answer's average stars, to 2 decimals (0
// without a rating); ratingsCount: all its ratings. ratings has an index on candidate.
const ratingSQL = `
UPDATE candidates SET
  ratingsCount = (SELECT count(*) FROM ratings r WHERE r.candidate = candidates.id),
  averageRating = COALESCE((SELECT round(avg(perAnswer.stars), 2)
                            FROM (SELECT avg(r.stars) AS stars FROM ratings r WHERE r.candidate = candidates.id GROUP BY r.answer) AS perAnswer), 0),
  updated = {:now}
WHERE id = {:candidate}`

// RecomputeCandidateRating recomputes one candidate's averageRating and ratingsCount from its ratings.
func RecomputeCandidateRating(app core.App, candidateID string) error {
	if candidateID == "" {
		return nil
	}
	_, err := app.DB().NewQuery(ratingSQL).Bind(dbx.Params{"candidate": candidateID, "now": dbNow()}).Execute()
	return err
}
