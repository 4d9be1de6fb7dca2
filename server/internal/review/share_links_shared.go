package review

import (
	"encoding/json"
	"math"
	"net/http"
	"sort"
	"strings"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// What a link's holder reads, without an account: the shared page and its videos (share_links.go).

func sharedViewRoute(e *core.RequestEvent) error {
	// a revoked link must not live on in a cache
	e.Response.Header().Set("Cache-Control", "no-store")
	token := e.Request.PathValue("token")
	link, err := linkOfToken(e.App, token)
	if err != nil {
		return err
	}
	view, err := sharedView(e.App, link, token)
	if err != nil {
		return err
	}
	// when it was last opened, for the managers' list (a plain column write: no hooks, no realtime event, `updated`
	// kept: opening the page is not an edit of the link)
	_, err = e.App.DB().NewQuery("UPDATE share_links SET lastOpenedAt = {:at} WHERE id = {:id}").
		Bind(dbx.Params{"at": platform.DBTime(time.Now()), "id": link.Id}).
		Execute()
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, view)
}

func sharedVideoRoute(e *core.RequestEvent) error {
	e.Response.Header().Set("Cache-Control", "no-store")
	link, err := linkOfToken(e.App, e.Request.PathValue("token"))
	if err != nil {
		return err
	}
	// only the link's candidate's answers
	video, _ := linkVideoAnswer(e.App, link, e.Request.PathValue("videoAnswerId"))
	if video == nil {
		return e.NotFoundError(resourceNotFound, nil)
	}
	file := video.GetString("file")
	if file == "" {
		return e.NotFoundError(resourceNotFound, nil)
	}

	// the type the server derived for the stored file (the answers route, the media worker): what the browser's
	// player needs
	if mimeType := video.GetString("mimeType"); mimeType == "video/webm" || mimeType == "video/mp4" {
		e.Response.Header().Set("Content-Type", mimeType)
	}
	fsys, err := e.App.NewFilesystem()
	if err != nil {
		return e.NotFoundError(resourceNotFound, nil)
	}
	defer fsys.Close()
	// http.ServeContent underneath: Range (206 with Content-Range), If-Range, HEAD, Content-Length
	if err := fsys.Serve(e.Response, e.Request, video.BaseFilesPath()+"/"+file, file); err != nil {
		return e.NotFoundError(resourceNotFound, nil)
	}
	return nil
}

type sharedPage struct {
	CompanyName     string           `json:"companyName"`
	CompanyLogoURL  *string          `json:"companyLogoUrl"`
	JobTitle        string           `json:"jobTitle"`
	CandidateEmail  string           `json:"candidateEmail"`
	IncludeFeedback bool             `json:"includeFeedback"`
	Questions       []sharedQuestion `json:"questions"`
	Comments        *[]sharedComment `json:"comments,omitempty"` // only with includeFeedback
}

type sharedQuestion struct {
	Title  string        `json:"title"`
	Kind   *string       `json:"kind"`
	Answer *sharedAnswer `json:"answer"`
}

// sharedAnswer is a video answer (kind "video", the fields up to transcriptSegments) or a text answer (kind "text",
// content); ratings only with the link's includeFeedback.
type sharedAnswer struct {
	Kind               string           `json:"kind"`
	ID                 string           `json:"id,omitempty"`
	URL                string           `json:"url,omitempty"`
	MimeType           *string          `json:"mimeType,omitempty"`
	DurationSeconds    *float64         `json:"durationSeconds,omitempty"`
	TranscriptStatus   *string          `json:"transcriptStatus,omitempty"`
	Transcript         *string          `json:"transcript,omitempty"`
	TranscriptSegments *[]sharedSegment `json:"transcriptSegments,omitempty"`
	// the captions (WebVTT) and the transcript as text (captions.go), each only when the answer has it
	CaptionsURL   *string `json:"captionsUrl,omitempty"`
	TranscriptURL *string `json:"transcriptUrl,omitempty"`
	// the language the transcript is in: the job's
	Language *string        `json:"language,omitempty"`
	Content  *string        `json:"content,omitempty"`
	Ratings  *sharedRatings `json:"ratings,omitempty"`
}

type sharedSegment struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Text  string  `json:"text"`
}

type sharedRatings struct {
	Average   *float64       `json:"average"`
	Count     int            `json:"count"`
	ByManager []sharedRating `json:"byManager"`
}

type sharedRating struct {
	ManagerName string `json:"managerName"`
	Stars       int    `json:"stars"`
}

type sharedComment struct {
	AuthorName string `json:"authorName"`
	Created    string `json:"created"`
	Text       string `json:"text"`
}

// sharedView is what the shared page shows of the link's candidate, and nothing else: the company's name (and its
// logo, a public file: companies' `logo` is not protected), the job's title, the candidate's e-mail, the job's
// questions in order with the candidate's answer to each; only with `includeFeedback`, the managers' ratings (per
// answer: the average, how many, each manager's name and stars) and comments (author's name, time, text). No record
// ids but the video answers' (the streaming route names them).
func sharedView(app core.App, link *core.Record, token string) (*sharedPage, error) {
	candidate, err := app.FindRecordById("candidates", link.GetString("candidate"))
	if err != nil {
		return nil, err
	}
	job, company, err := platform.JobAndCompanyOf(app, candidate)
	if err != nil {
		return nil, err
	}
	includeFeedback := link.GetBool("includeFeedback")

	answers, err := app.FindAllRecords("answers", dbx.HashExp{"candidate": candidate.Id})
	if err != nil {
		return nil, err
	}
	// the job's questions, then any answered one the job no longer asks (history stays true)
	questions, err := reviewedQuestions(app, job, answers)
	if err != nil {
		return nil, err
	}
	questionIDs := make([]string, len(questions))
	for i, question := range questions {
		questionIDs[i] = question.Id
	}
	answerIDs := make([]string, len(answers))
	answerOf := make(map[string]*core.Record, len(answers))
	for i, answer := range answers {
		answerIDs[i] = answer.Id
		answerOf[answer.GetString("question")] = answer
	}
	questionKinds := platform.KindsOf(app, []string{"video_questions", "text_questions"}, "question", questionIDs)
	answerKinds := platform.KindsOf(app, []string{"video_answers", "text_answers"}, "answer", answerIDs)

	ratingsOf := map[string][]*core.Record{}
	names := map[string]string{}
	var comments []*core.Record
	if includeFeedback {
		ratings, err := app.FindAllRecords("ratings", dbx.HashExp{"candidate": candidate.Id})
		if err != nil {
			return nil, err
		}
		comments, err = app.FindRecordsByFilter("comments", "candidate = {:c}", "created,id", 0, 0, dbx.Params{"c": candidate.Id})
		if err != nil {
			return nil, err
		}
		var people []string
		seen := map[string]bool{}
		for _, person := range append(fieldValues(ratings, "manager"), fieldValues(comments, "author")...) {
			if !seen[person] {
				seen[person] = true
				people = append(people, person)
			}
		}
		if len(people) > 0 {
			users, err := app.FindRecordsByIds("users", people)
			if err != nil {
				return nil, err
			}
			for _, user := range users {
				names[user.Id] = strings.TrimSpace(user.GetString("firstName") + " " + user.GetString("lastName"))
			}
		}
		for _, rating := range ratings {
			key := rating.GetString("answer")
			ratingsOf[key] = append(ratingsOf[key], rating)
		}
	}

	shownQuestions := make([]sharedQuestion, 0, len(questions))
	for _, question := range questions {
		answer := answerOf[question.Id]
		var shown *sharedAnswer
		if answer != nil {
			if kind, ok := answerKinds[answer.Id]; ok {
				shown = shownAnswer(kind, token, platform.JobLanguage(job))
			}
		}
		if shown != nil && includeFeedback {
			shown.Ratings = ratingsSummary(ratingsOf[answer.Id], names)
		}
		shownQuestions = append(shownQuestions, sharedQuestion{
			Title:  questionTitle(answer, question),
			Kind:   questionKindOf(answer, questionKinds[question.Id]),
			Answer: shown,
		})
	}

	view := &sharedPage{
		CompanyName:     company.GetString("name"),
		JobTitle:        job.GetString("title"),
		CandidateEmail:  candidate.GetString("email"),
		IncludeFeedback: includeFeedback,
		Questions:       shownQuestions,
	}
	if logo := company.GetString("logo"); logo != "" {
		// a public file (the field is not protected), its 100x100 thumb
		logoURL := "/api/files/companies/" + company.Id + "/" + platform.EncodeURIComponent(logo) + "?thumb=100x100"
		view.CompanyLogoURL = &logoURL
	}
	if includeFeedback {
		shown := make([]sharedComment, len(comments))
		view.Comments = &shown
		for i, comment := range comments {
			shown[i] = sharedComment{
				AuthorName: names[comment.GetString("author")],
				Created:    comment.GetString("created"),
				Text:       comment.GetString("text"),
			}
		}
	}
	return view, nil
}

func fieldValues(records []*core.Record, field string) []string {
	values := make([]string, len(records))
	for i, record := range records {
		values[i] = record.GetString(field)
	}
	return values
}

func shownAnswer(kind platform.Kind, token, language string) *sharedAnswer {
	record := kind.Record
	switch kind.Name {
	case "video_answers":
		mimeType := record.GetString("mimeType")
		duration := record.GetFloat("durationSeconds")
		status := record.GetString("transcriptStatus")
		transcript := record.GetString("transcript")
		segments := transcriptSegments(record)
		url := "/api/screenroom/shared/" + token + "/videos/" + record.Id
		shown := &sharedAnswer{
			Kind:               "video",
			ID:                 record.Id,
			URL:                url,
			MimeType:           &mimeType,
			DurationSeconds:    &duration,
			TranscriptStatus:   &status,
			Transcript:         &transcript,
			TranscriptSegments: &segments,
			Language:           &language,
		}
		if hasCaptions(record) {
			captions := url + "/captions.vtt"
			shown.CaptionsURL = &captions
		}
		if _, ok := transcriptText(record); ok {
			text := url + "/transcript.txt"
			shown.TranscriptURL = &text
		}
		return shown
	case "text_answers":
		content := record.GetString("content")
		return &sharedAnswer{Kind: "text", Content: &content}
	}
	return nil
}

// transcriptSegments are the transcript's timed segments, or nil (null) when the worker stored none.
func transcriptSegments(video *core.Record) []sharedSegment {
	raw := video.GetString("transcriptSegments")
	if raw == "" || raw == "null" {
		return nil
	}
	var items []any
	if err := json.Unmarshal([]byte(raw), &items); err != nil {
		return nil
	}
	segments := []sharedSegment{}
	for _, item := range items {
		s, ok := item.(map[string]any)
		if !ok {
			continue
		}
		start, startOK := s["start"].(float64)
		end, endOK := s["end"].(float64)
		text, textOK := s["text"].(string)
		if startOK && endOK && textOK {
			segments = append(segments, sharedSegment{Start: start, End: end, Text: text})
		}
	}
	return segments
}

// ratingsSummary: the answer's ratings in the order they were given, their average to two places (null without any).
func ratingsSummary(given []*core.Record, names map[string]string) *sharedRatings {
	given = append([]*core.Record(nil), given...)
	sort.SliceStable(given, func(i, j int) bool { return given[i].GetString("created") < given[j].GetString("created") })
	summary := &sharedRatings{Count: len(given), ByManager: make([]sharedRating, len(given))}
	total := 0
	for i, rating := range given {
		stars := rating.GetInt("stars")
		total += stars
		summary.ByManager[i] = sharedRating{ManagerName: names[rating.GetString("manager")], Stars: stars}
	}
	if len(given) > 0 {
		average := math.Floor(float64(total)/float64(len(given))*100+0.5) / 100
		summary.Average = &average
	}
	return summary
}

// questionTitle is the question as the candidate was asked it (the answer's snapshot), not as it reads since.
func questionTitle(answer, question *core.Record) string {
	if answer != nil {
		if title := answer.GetString("questionTitle"); title != "" {
			return title
		}
	}
	return question.GetString("title")
}

func questionKindOf(answer *core.Record, kind platform.Kind) *string {
	var name string
	if answer != nil {
		name = answer.GetString("questionKind")
	}
	if name == "" {
		switch kind.Name {
		case "":
			return nil
		case "video_questions":
			name = "video"
		default:
			name = "text"
		}
	}
	return &name
}
