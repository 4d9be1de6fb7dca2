package answers

import (
	"net/http"
	"slices"
	"sort"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// GET /api/screenroom/deletions/{collection}/{id} (collection: questions, jobs or candidates): what deleting the
// record would take with it, for the delete dialogs to say plainly (the SPA cannot count through relations itself:
// client filters may not follow relation paths, platform/query_guard.go). Only for who may delete the record (the
// collection's delete rule: the company's managers); anyone else, and an unknown record, gets the same 404.
// 200 questions: {answers, jobs: [{id, title, questions}]}; jobs: {candidates, answers, videos}; candidates:
// {answers, videos}. The same counts decide the delete hooks' refusals (history.go).
func registerDeletions(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/deletions/{collection}/{id}", deletionsRoute)
		return se.Next()
	})
}

func deletionsRoute(e *core.RequestEvent) error {
	notFound := func() error { return e.NotFoundError("The requested resource wasn't found.", nil) }
	name := e.Request.PathValue("collection")
	if !slices.Contains([]string{"questions", "jobs", "candidates"}, name) {
		return notFound()
	}
	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	if info.Auth == nil {
		return notFound()
	}
	record := platform.FindByIdOrNil(e.App, name, e.Request.PathValue("id"))
	if record == nil {
		return notFound()
	}
	if ok, _ := e.App.CanAccessRecord(record, info, record.Collection().DeleteRule); !ok {
		return notFound()
	}

	e.Response.Header().Set("Cache-Control", "no-store")
	counts := map[string]any{}
	switch name {
	case "questions":
		answers, err := answersOfQuestion(e.App, record.Id)
		if err != nil {
			return err
		}
		jobs, err := jobsAsking(e.App, record.Id)
		if err != nil {
			return err
		}
		counts["answers"], counts["jobs"] = answers, jobs
	case "jobs":
		for key, countOf := range map[string]func(core.App, string) (int, error){
			"candidates": candidatesOfJob, "answers": answersOfJob, "videos": videosOfJob,
		} {
			if counts[key], err = countOf(e.App, record.Id); err != nil {
				return err
			}
		}
	default:
		for key, countOf := range map[string]func(core.App, string) (int, error){
			"answers": answersOfCandidate, "videos": videosOfCandidate,
		} {
			if counts[key], err = countOf(e.App, record.Id); err != nil {
				return err
			}
		}
	}
	return e.JSON(http.StatusOK, counts)
}

func count(app core.App, sql string, params dbx.Params) (int, error) {
	var n int
	err := app.DB().NewQuery(sql).Bind(params).Row(&n)
	return n, err
}

func answersOfQuestion(app core.App, questionID string) (int, error) {
	if questionID == "" {
		return 0, nil
	}
	return count(app, "SELECT count(*) FROM answers WHERE question = {:q}", dbx.Params{"q": questionID})
}

func answersOfCandidate(app core.App, candidateID string) (int, error) {
	return count(app, "SELECT count(*) FROM answers WHERE candidate = {:c}", dbx.Params{"c": candidateID})
}

func answersOfJob(app core.App, jobID string) (int, error) {
	return count(app,
		"SELECT count(*) FROM answers JOIN candidates ON candidates.id = answers.candidate WHERE candidates.job = {:j}",
		dbx.Params{"j": jobID})
}

func candidatesOfJob(app core.App, jobID string) (int, error) {
	return count(app, "SELECT count(*) FROM candidates WHERE job = {:j}", dbx.Params{"j": jobID})
}

func videosOfJob(app core.App, jobID string) (int, error) {
	return count(app,
		`SELECT count(*) FROM video_answers JOIN answers ON answers.id = video_answers.answer
		   JOIN candidates ON candidates.id = answers.candidate WHERE candidates.job = {:j}`,
		dbx.Params{"j": jobID})
}

func videosOfCandidate(app core.App, candidateID string) (int, error) {
	return count(app,
		"SELECT count(*) FROM video_answers JOIN answers ON answers.id = video_answers.answer WHERE answers.candidate = {:c}",
		dbx.Params{"c": candidateID})
}

type askingJob struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Questions []string `json:"questions"`
}

// jobsAsking are the jobs that ask a question, by title (the same company's, as the questions' rules keep them).
func jobsAsking(app core.App, questionID string) ([]askingJob, error) {
	records, err := app.FindAllRecords("jobs",
		dbx.NewExp("EXISTS (SELECT 1 FROM json_each(jobs.questions) WHERE json_each.value = {:q})", dbx.Params{"q": questionID}))
	if err != nil {
		return nil, err
	}
	sort.SliceStable(records, func(i, j int) bool { return records[i].GetString("title") < records[j].GetString("title") })
	jobs := make([]askingJob, len(records))
	for i, job := range records {
		questions := job.GetStringSlice("questions")
		if questions == nil {
			questions = []string{}
		}
		jobs[i] = askingJob{ID: job.Id, Title: job.GetString("title"), Questions: questions}
	}
	return jobs, nil
}

// onlyQuestionOf is the title of a job whose only question is questionID, or "" when there is none.
func onlyQuestionOf(app core.App, questionID string) (string, error) {
	var titles []string
	err := app.DB().
		NewQuery("SELECT title FROM jobs WHERE json_array_length(questions) = 1 AND json_extract(questions, '$[0]') = {:q} LIMIT 1").
		Bind(dbx.Params{"q": questionID}).
		Column(&titles)
	if err != nil || len(titles) == 0 {
		return "", err
	}
	return titles[0], nil
}
