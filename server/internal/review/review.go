package review

import (
	"screenroom/server/internal/platform"

	"sort"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// The candidate review's one read: GET /api/screenroom/reviews/{candidateId}, for the managers of the candidate's
// company. The same record, in the same shape, as the records API's
// candidates/{id}?expand=job.questions.video_questions_via_question,job.questions.text_questions_via_question,
// answers_via_candidate.video_answers_via_answer,answers_via_candidate.text_answers_via_answer
//
// Why a route: through the records API every expanded question and kind record runs its rule, whose candidate
// clause joins the job back-relations across all of the company's candidates even for a manager. Here access is
// decided once, on the candidate record, with the candidates collection's list rule (managers of the job's
// company, decisions.md "Access model"); everything returned hangs off that record (its job, the job's questions and
// their kinds, its answers and their kinds), all of which the same managers may view. Hidden fields stay hidden
// (records serialise their public export). In Go rather than a JS hook (issue 20, reads at ten times the data): the
// hooks' engine spent as long turning the records into JS values and back as the reads took.
func registerReview(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/reviews/{id}", reviewRoute)
		return se.Next()
	})
}

func reviewRoute(e *core.RequestEvent) error {
	_, candidate, job, ok := platform.ManagedCandidate(e, false)
	if !ok {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	answers, err := e.App.FindAllRecords("answers", dbx.HashExp{"candidate": candidate.Id})
	if err != nil {
		return err
	}
	// in the job's order, as the records API expands a multiple relation, then any question the candidate answered
	// that the job no longer asks (issue 16: history stays true); each answer carries the question as it was asked
	questions, err := reviewedQuestions(e.App, job, answers)
	if err != nil {
		return err
	}
	if err := expandKinds(e.App, questions, "question", "video_questions", "text_questions"); err != nil {
		return err
	}
	job.SetExpand(map[string]any{"questions": questions})
	if err := expandKinds(e.App, answers, "answer", "video_answers", "text_answers"); err != nil {
		return err
	}
	candidate.SetExpand(map[string]any{"job": job, "answers_via_candidate": answers})
	return e.JSON(200, candidate)
}

// reviewedQuestions: the questions a candidate's review shows: the job's, in the job's order, then any the
// candidate answered that the job no longer asks (removed after they answered), in the order they were answered,
// so no answer ever drops out of a review (also the shared page's, share_links_shared.go).
func reviewedQuestions(app core.App, job *core.Record, answers []*core.Record) ([]*core.Record, error) {
	ids := job.GetStringSlice("questions")
	inJob := make(map[string]bool, len(ids))
	for _, id := range ids {
		inJob[id] = true
	}
	byAnswer := append([]*core.Record(nil), answers...)
	sort.SliceStable(byAnswer, func(i, j int) bool { return byAnswer[i].GetString("created") < byAnswer[j].GetString("created") })
	var missing []string
	for _, answer := range byAnswer {
		if id := answer.GetString("question"); !inJob[id] {
			missing = append(missing, id)
		}
	}
	wanted := append(append([]string(nil), ids...), missing...)
	if len(wanted) == 0 {
		return []*core.Record{}, nil
	}
	found, err := app.FindRecordsByIds("questions", wanted)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*core.Record, len(found))
	for _, question := range found {
		byID[question.Id] = question
	}
	questions := make([]*core.Record, 0, len(wanted))
	for _, id := range wanted {
		if question := byID[id]; question != nil {
			questions = append(questions, question)
		}
	}
	return questions, nil
}

// expandKinds sets on each owner (a question or an answer) its kind record, found in the kind collections by their
// relation field, as the expand `{kind}_via_{field}` (video_questions_via_question, text_answers_via_answer, …).
func expandKinds(app core.App, owners []*core.Record, field string, kinds ...string) error {
	if len(owners) == 0 {
		return nil
	}
	byID := make(map[string]*core.Record, len(owners))
	ids := make([]any, len(owners))
	for i, owner := range owners {
		byID[owner.Id] = owner
		ids[i] = owner.Id
	}
	for _, kind := range kinds {
		records, err := app.FindAllRecords(kind, dbx.In(field, ids...))
		if err != nil {
			return err
		}
		for _, record := range records {
			if owner := byID[record.GetString(field)]; owner != nil {
				owner.SetExpand(map[string]any{kind + "_via_" + field: record})
			}
		}
	}
	return nil
}
