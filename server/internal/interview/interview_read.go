package interview

// The interview's one read for a candidate's link: GET /api/screenroom/interviews/{key} with the key in the path and
// in the X-Candidate-Key header (interview_routes.go routes it), everything the candidate's interview screens need in
// one request: the company's name and logo, the job's title, the job's questions in the job's order with their kind,
// and the questions the candidate has already answered; for each unanswered video question, the takes the server
// counted (takesUsed) and the take it keeps for the candidate (keptTake: a finished or interrupted take never
// submitted). `language` (the job's, "en" when it names none), `candidateLanguage` (the candidate's own choice with
// the switcher, "" when none: the screens use it first), `retentionMonths` (the company's period, 0 when it keeps
// candidates until it deletes them; the consent says it). `serverNow` (the server's clock), `deadline` ('' when none) and `closed` (nil, or why and since when:
// then `questions` is empty, the branding stays); per question the candidate's own timeout (seconds, extra time
// included), untimed (unlimited time: no countdown, no length limit), preparation (video: seconds before recording
// starts by itself; 0 for text), takes (with the extra takes) and openedAt (the first opening; '' if never), all by
// the rules of rules.go.
//
// Why a route and not the records API: read with only the candidate's header, the records API checks every expanded
// company, job, question and kind record against the candidate clauses of their rules, which join back-relations
// across all of a company's candidates; at the benchmark's size that made the interview's first request miss its p95
// budget. Here the same access decision is made once, on the candidate record itself, with the candidates
// collection's own view rule (decisions.md "Access model"); everything else returned is reached from that record by
// its relations, which is exactly what the candidate clauses of the other rules allow. It is a handful of
// statements: the candidate by its key, its view rule, its job and company, the job's questions and their kinds, and
// the candidate's answers, progress rows and staged takes, each read once (as a JS hook the read cost
// 3.4 ms of the server's core at ten times the bench data, two thirds of it the JS engine).
//
// A link whose candidate withdrew themself (withdrawal.go) answers 200 with only { withdrawnAt, language }: the
// screens say in that language that they withdrew and that their answers were deleted.
//
// Refusals: 404 "This interview link is not valid." for a missing or different header key, an unknown key, a
// candidate its own view rule refuses. The kept take is what staging.Describe (internal/takes/staging) finds on disk.

import (
	"screenroom/server/internal/analytics"
	"screenroom/server/internal/takes/staging"

	"screenroom/server/internal/platform"

	"errors"
	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"maps"
	"net/http"
)

type interviewKeptTake struct {
	ID         string `json:"id"`
	Bytes      int64  `json:"bytes"`
	RecordedMs int    `json:"recordedMs"`
	Finished   bool   `json:"finished"`
	SavedAt    string `json:"savedAt"`
}

type interviewQuestion struct {
	ID          string             `json:"id"`
	Title       string             `json:"title"`
	Description string             `json:"description"`
	Timeout     int                `json:"timeout"`
	Untimed     bool               `json:"untimed"`
	Preparation int                `json:"preparation"`
	CanPreview  bool               `json:"canPreview"`
	Kind        string             `json:"kind"`
	Takes       int                `json:"takes"`
	TakesUsed   int                `json:"takesUsed"`
	OpenedAt    string             `json:"openedAt"`
	KeptTake    *interviewKeptTake `json:"keptTake"`
}

type interviewAnswer struct {
	CandidateID         string              `json:"candidateId"`
	CompanyName         string              `json:"companyName"`
	CompanyLogoURL      string              `json:"companyLogoUrl"`
	PrivacyURL          string              `json:"privacyUrl"`
	JobTitle            string              `json:"jobTitle"`
	WelcomeMessage      string              `json:"welcomeMessage"`
	Language            string              `json:"language"`
	CandidateLanguage   string              `json:"candidateLanguage"`
	RetentionMonths     int                 `json:"retentionMonths"`
	ConsentedAt         string              `json:"consentedAt"`
	ServerNow           string              `json:"serverNow"`
	Deadline            string              `json:"deadline"`
	Closed              *Closed             `json:"closed"`
	Questions           []interviewQuestion `json:"questions"`
	AnsweredQuestionIDs []string            `json:"answeredQuestionIds"`
}

func interviewRead(e *core.RequestEvent, key string) error {
	notValid := func() error { return e.NotFoundError("This interview link is not valid", nil) }
	// A candidate reads only its own interview; managers read candidates through the review screen.
	header := e.Request.Header.Get(platform.CandidateKeyHeader)
	if !platform.IsCandidateKey(header) || header != key {
		return notValid()
	}
	answer, err := loadInterview(e, key)
	if err == errInterviewNotValid {
		// the candidate withdrew: the link says so, in their language, and nothing else
		if withdrawn := findWithdrawnLink(e.App, key); withdrawn != nil {
			return e.JSON(http.StatusOK, withdrawnAnswer(withdrawn))
		}
		return notValid()
	}
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, answer)
}

// errInterviewNotValid: no candidate has the key, or the candidate's view rule refuses it.
var errInterviewNotValid = errors.New("this interview link is not valid")

// loadInterview: the interview of the candidate holding `key` as the read answers it; the caller has checked that
// the request carries the key (the X-Candidate-Key header).
func loadInterview(e *core.RequestEvent, key string) (*interviewAnswer, error) {
	candidate, err := e.App.FindFirstRecordByData("candidates", "secret", key)
	if err != nil || candidate.GetString("secret") != key {
		return nil, errInterviewNotValid
	}
	info, err := e.RequestInfo()
	if err != nil {
		return nil, err
	}
	// the view rule reads the key from the header
	if info.Headers["x_candidate_key"] != key {
		withKey := *info
		withKey.Headers = maps.Clone(info.Headers)
		if withKey.Headers == nil {
			withKey.Headers = map[string]string{}
		}
		withKey.Headers["x_candidate_key"] = key
		info = &withKey
	}
	if ok, _ := e.App.CanAccessRecord(candidate, info, candidate.Collection().ViewRule); !ok {
		return nil, errInterviewNotValid
	}

	job, company, err := platform.JobAndCompanyOf(e.App, candidate)
	if err != nil {
		return nil, err
	}
	now := platform.Now(e.App)
	closed := closedState(candidate, job, now.UnixMilli())

	answered, err := e.App.FindAllRecords("answers", dbx.HashExp{"candidate": candidate.Id})
	if err != nil {
		return nil, err
	}
	answeredIDs := make([]string, 0, len(answered))
	isAnswered := map[string]bool{}
	for _, answer := range answered {
		answeredIDs = append(answeredIDs, answer.GetString("question"))
		isAnswered[answer.GetString("question")] = true
	}

	asked := []interviewQuestion{}
	if closed == nil {
		asked, err = interviewQuestions(e.App, candidate, job, isAnswered)
		if err != nil {
			return nil, err
		}
	}

	// The logo file field is not protected: its URL is readable by whoever has it, the candidate included.
	logoURL := ""
	if logo := company.GetString("logo"); logo != "" {
		logoURL = "/api/files/" + company.Collection().Id + "/" + company.Id + "/" + platform.EncodeURIComponent(logo)
	}
	// the funnel's "link opened": noted here, written later by the analytics package (never on this read's path)
	analytics.NoteLinkOpened(e.App, candidate)
	return &interviewAnswer{
		CandidateID:         candidate.Id,
		CompanyName:         company.GetString("name"),
		CompanyLogoURL:      logoURL,
		PrivacyURL:          company.GetString("privacyUrl"),
		JobTitle:            job.GetString("title"),
		WelcomeMessage:      job.GetString("welcomeMessage"),
		Language:            platform.JobLanguage(job),
		CandidateLanguage:   candidate.GetString("language"),
		RetentionMonths:     company.GetInt("retentionMonths"),
		ConsentedAt:         candidate.GetString("consentedAt"),
		ServerNow:           platform.DBTime(now),
		Deadline:            candidate.GetString("deadline"),
		Closed:              closed,
		Questions:           asked,
		AnsweredQuestionIDs: answeredIDs,
	}, nil
}

// interviewQuestions: the job's questions in the job's order, each as the candidate is given it (extra time and
// takes), with its progress (takes counted, first opening) and, for an unanswered video question, the live take the
// server keeps.
func interviewQuestions(app core.App, candidate, job *core.Record, isAnswered map[string]bool) ([]interviewQuestion, error) {
	asked := []interviewQuestion{}
	ids := job.GetStringSlice("questions")
	if len(ids) == 0 {
		return asked, nil
	}
	found, err := app.FindRecordsByIds("questions", ids)
	if err != nil {
		return nil, err
	}
	questions := map[string]*core.Record{}
	for _, question := range found {
		questions[question.Id] = question
	}
	// each question's kind record; a text kind wins over a video one, as platform.KindsOf reads them
	inIDs := make([]any, len(ids))
	for i, id := range ids {
		inIDs[i] = id
	}
	videoKinds := map[string]*core.Record{}
	kindOf := map[string]string{}
	for _, name := range []string{"video_questions", "text_questions"} {
		records, err := app.FindAllRecords(name, dbx.In("question", inIDs...))
		if err != nil {
			return nil, err
		}
		for _, record := range records {
			kindOf[record.GetString("question")] = name
			if name == "video_questions" {
				videoKinds[record.GetString("question")] = record
			}
		}
	}
	// the candidate's progress rows and live staged takes, by question (the first found, as findFirstRecordByFilter)
	progress := map[string]*core.Record{}
	rows, err := app.FindAllRecords("question_progress", dbx.HashExp{"candidate": candidate.Id})
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		if _, seen := progress[row.GetString("question")]; !seen {
			progress[row.GetString("question")] = row
		}
	}
	liveTakes := map[string]*core.Record{}
	takes, err := app.FindAllRecords("staged_takes", dbx.HashExp{"candidate": candidate.Id})
	if err != nil {
		return nil, err
	}
	for _, take := range takes {
		if _, seen := liveTakes[take.GetString("question")]; !seen && !take.GetBool("retired") {
			liveTakes[take.GetString("question")] = take
		}
	}

	untimed := IsUntimed(candidate)
	for _, id := range ids {
		question := questions[id]
		kind := kindOf[id]
		// A job never holds a kindless question (business rule 7); should one slip through, it is not askable.
		if question == nil || kind == "" {
			continue
		}
		video := kind == "video_questions"
		var videoKind *core.Record
		if video {
			videoKind = videoKinds[id]
		}
		open := video && !isAnswered[id]
		var kept *interviewKeptTake
		if live := liveTakes[id]; open && live != nil {
			kept = describeKeptTake(app, live)
		}
		row := progress[id]
		item := interviewQuestion{
			ID:          question.Id,
			Title:       question.GetString("title"),
			Description: question.GetString("description"),
			Timeout:     EffectiveTimeout(question, candidate),
			Untimed:     untimed,
			CanPreview:  question.GetBool("canPreview"),
			Kind:        "text",
			Takes:       1,
			KeptTake:    kept,
		}
		if video {
			item.Kind = "video"
			item.Preparation = EffectivePreparation(videoKind, candidate)
			item.Takes = MaxTakes(videoKind, candidate)
		}
		if row != nil {
			if open {
				item.TakesUsed = row.GetInt("takesStarted")
			}
			item.OpenedAt = row.GetString("openedAt")
		}
		asked = append(asked, item)
	}
	return asked, nil
}

// describeKeptTake is the kept take as the interview read names it: what staging.Describe finds on disk, without
// the list of parts (the device asks the take's route for those); nil without bytes.
func describeKeptTake(app core.App, row *core.Record) *interviewKeptTake {
	take := staging.Describe(app, row)
	if take == nil {
		return nil
	}
	return &interviewKeptTake{ID: take.ID, Bytes: take.Bytes, RecordedMs: take.RecordedMs, Finished: take.Finished, SavedAt: take.SavedAt}
}
