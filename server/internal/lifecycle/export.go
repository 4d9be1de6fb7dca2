package lifecycle

import (
	"screenroom/server/internal/platform"

	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// Export (issue 19 point 6): GET /api/screenroom/candidates/{id}/export, 'Export data' on the candidate's review.
// One candidate's data as a zip, for the managers of the candidate's company only: the candidates collection's list
// rule decides, as the review route does (review.go); anyone else, an unverified account and an unknown
// id get the same 404. The zip is written straight into the response: each video is streamed from PocketBase's
// filesystem (app.NewFilesystem(): the local disk or S3, whichever the settings say), never held in memory. Every
// export is written to the audit log (action "export", the manager, the company, the candidate's id) before the
// first byte is sent, so an export that is cut off is recorded all the same.

const exportReadme = `Screenroom: one candidate's data
================================

This archive holds everything Screenroom stores about one candidate, as it was when it was exported.

candidate.json      The candidate: e-mail, names, job, interview status and dates, consent, deadline,
                    accommodations, decision. (The interview link's key is left out: it is a credential.)
job.json            The job the candidate was invited to (title, description, location).
answers.json        Every answer, in the order given, each with the question as it was asked (questionTitle,
                    questionDescription, questionKind), when it was given, and its content: for a text answer the
                    text; for a video answer the video's file name in videos/, its type and length, and the
                    transcript's status and file names in transcripts/.
videos/             The original video files, one per video answer, named <number>-<answer id>.<ext>.
transcripts/        For each transcribed video answer: <number>-<answer id>.txt (the text) and, where the
                    transcriber gave timings, <number>-<answer id>.segments.json ([{start, end, text}], seconds).
ratings.json        The managers' star ratings (1 to 5) of the answers: answer id, manager's user id, stars, dates.
comments.json       The managers' comments on the candidate: author's user id, text, dates.
decision.json       The hiring decision (advance, hold, reject, or empty), who made it (user id) and when.
messages.json       The decision messages e-mailed to the candidate: kind (advance, reject), language, subject and
                    text as sent, who sent it (user id) and when.

Ids are Screenroom's internal record ids. Dates are UTC.
`

type exportedFile struct {
	name string
	key  string // the file's key in PocketBase's filesystem
}

func registerExport(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/candidates/{id}/export", func(e *core.RequestEvent) error {
			return exportCandidate(e)
		})
		return se.Next()
	})
}

func exportCandidate(e *core.RequestEvent) error {
	info, candidate, job, ok := platform.ManagedCandidate(e, true)
	if !ok {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}

	answers, err := e.App.FindRecordsByFilter("answers", "candidate = {:c}", "created", 0, 0, dbx.Params{"c": candidate.Id})
	if err != nil {
		return err
	}
	answerIds := make([]any, len(answers))
	for i, a := range answers {
		answerIds[i] = a.Id
	}
	videosByAnswer := map[string]*core.Record{}
	textsByAnswer := map[string]*core.Record{}
	if len(answerIds) > 0 {
		videos, err := e.App.FindAllRecords("video_answers", dbx.In("answer", answerIds...))
		if err != nil {
			return err
		}
		for _, v := range videos {
			videosByAnswer[v.GetString("answer")] = v
		}
		texts, err := e.App.FindAllRecords("text_answers", dbx.In("answer", answerIds...))
		if err != nil {
			return err
		}
		for _, t := range texts {
			textsByAnswer[t.GetString("answer")] = t
		}
	}
	ratings, err := e.App.FindRecordsByFilter("ratings", "candidate = {:c}", "created", 0, 0, dbx.Params{"c": candidate.Id})
	if err != nil {
		return err
	}
	comments, err := e.App.FindRecordsByFilter("comments", "candidate = {:c}", "created", 0, 0, dbx.Params{"c": candidate.Id})
	if err != nil {
		return err
	}
	messages, err := e.App.FindRecordsByFilter("decision_messages", "candidate = {:c}", "sentAt", 0, 0, dbx.Params{"c": candidate.Id})
	if err != nil {
		return err
	}

	// what the archive holds, decided before the first byte
	type entry struct {
		name string
		data any
	}
	var jsonEntries []entry
	var files []exportedFile
	var transcripts []entry
	exportedAnswers := make([]map[string]any, 0, len(answers))
	for i, a := range answers {
		item := map[string]any{
			"id":                  a.Id,
			"question":            a.GetString("question"),
			"questionTitle":       a.GetString("questionTitle"),
			"questionDescription": a.GetString("questionDescription"),
			"questionKind":        a.GetString("questionKind"),
			"created":             a.GetString("created"),
		}
		base := fmt.Sprintf("%d-%s", i+1, a.Id)
		if t := textsByAnswer[a.Id]; t != nil {
			item["text"] = t.GetString("content")
		}
		if v := videosByAnswer[a.Id]; v != nil {
			video := map[string]any{
				"mimeType":         v.GetString("mimeType"),
				"durationSeconds":  v.GetFloat("durationSeconds"),
				"transcriptStatus": v.GetString("transcriptStatus"),
			}
			if name := v.GetString("file"); name != "" {
				ext := strings.TrimPrefix(path.Ext(name), ".")
				if ext == "" {
					ext = "webm"
				}
				zipName := "videos/" + base + "." + ext
				files = append(files, exportedFile{name: zipName, key: v.BaseFilesPath() + "/" + name})
				video["file"] = zipName
			}
			if transcript := v.GetString("transcript"); transcript != "" {
				name := "transcripts/" + base + ".txt"
				transcripts = append(transcripts, entry{name: name, data: transcript})
				video["transcript"] = name
			}
			var segments []any
			if raw := v.GetString("transcriptSegments"); raw != "" && raw != "null" {
				if json.Unmarshal([]byte(raw), &segments) == nil && len(segments) > 0 {
					name := "transcripts/" + base + ".segments.json"
					jsonEntries = append(jsonEntries, entry{name: name, data: segments})
					video["transcriptSegments"] = name
				}
			}
			item["video"] = video
		}
		exportedAnswers = append(exportedAnswers, item)
	}

	candidateData := candidate.PublicExport()
	delete(candidateData, "expand")
	jsonEntries = append([]entry{
		{name: "candidate.json", data: candidateData},
		{name: "job.json", data: map[string]any{
			"id": job.Id, "title": job.GetString("title"), "description": job.GetString("description"),
			"location": job.GetString("location"), "company": job.GetString("company"),
		}},
		{name: "answers.json", data: exportedAnswers},
		{name: "ratings.json", data: pick(ratings, "id", "answer", "manager", "stars", "created", "updated")},
		{name: "comments.json", data: pick(comments, "id", "author", "text", "created", "updated")},
		{name: "decision.json", data: map[string]any{
			"decision": candidate.GetString("decision"), "decisionBy": candidate.GetString("decisionBy"),
			"decisionAt": candidate.GetString("decisionAt"),
		}},
		{name: "messages.json", data: pick(messages, "id", "kind", "language", "subject", "body", "sentBy", "sentAt")},
	}, jsonEntries...)

	if err := writeAudit(e.App, job.GetString("company"), actorManager, info.Auth.Id, "export", candidate.Id); err != nil {
		return err
	}

	fsys, err := e.App.NewFilesystem()
	if err != nil {
		return err
	}
	defer fsys.Close()

	header := e.Response.Header()
	header.Set("Content-Type", "application/zip")
	header.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="candidate-%s.zip"`, candidate.Id))
	header.Set("Cache-Control", "no-store")
	e.Response.WriteHeader(http.StatusOK)

	archive := zip.NewWriter(e.Response)
	now := time.Now().UTC()
	add := func(name string, method uint16) (io.Writer, error) {
		return archive.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: now})
	}
	writeText := func(name, text string) error {
		w, err := add(name, zip.Deflate)
		if err == nil {
			_, err = io.WriteString(w, text)
		}
		return err
	}
	if err := writeText("README.txt", exportReadme); err != nil {
		return err
	}
	for _, item := range jsonEntries {
		data, err := json.MarshalIndent(item.data, "", "  ")
		if err != nil {
			return err
		}
		if err := writeText(item.name, string(data)+"\n"); err != nil {
			return err
		}
	}
	for _, item := range transcripts {
		if err := writeText(item.name, item.data.(string)+"\n"); err != nil {
			return err
		}
	}
	for _, file := range files {
		// videos are compressed already: stored as they are
		w, err := add(file.name, zip.Store)
		if err != nil {
			return err
		}
		reader, err := fsys.GetReader(file.key)
		if err != nil {
			e.App.Logger().Error("export: a video could not be read", "file", file.key, "error", err.Error())
			continue
		}
		_, err = io.Copy(w, reader)
		reader.Close()
		if err != nil {
			return err
		}
	}
	return archive.Close()
}

// pick is the named fields of each record, as a JSON-ready list.
func pick(records []*core.Record, fields ...string) []map[string]any {
	out := make([]map[string]any, 0, len(records))
	for _, r := range records {
		item := map[string]any{}
		for _, f := range fields {
			if f == "id" {
				item[f] = r.Id
			} else {
				item[f] = r.Get(f)
			}
		}
		out = append(out, item)
	}
	return out
}

// writeAudit appends one entry to the audit log (pb_migrations/1733200100_audit_log.js): kind is the actor's kind,
// actor the manager's id (empty for any other kind).
func writeAudit(app core.App, company, kind, actor, action, candidateId string) error {
	collection, err := app.FindCachedCollectionByNameOrId("audit_log")
	if err != nil {
		return err
	}
	record := core.NewRecord(collection)
	record.Set("company", company)
	record.Set("actorKind", kind)
	record.Set("actor", actor)
	record.Set("action", action)
	record.Set("candidateId", candidateId)
	return app.Save(record)
}
