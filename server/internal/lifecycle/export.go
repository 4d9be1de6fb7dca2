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
	"github.com/pocketbase/pocketbase/tools/filesystem"
)

// Export (issue 19 point 6): GET /api/screenroom/candidates/{id}/export, 'Export data' on the candidate's review.
// One candidate's data as a zip, for the managers of the candidate's company only: the candidates collection's list
// rule decides, as the review route does (review.go); anyone else, an unverified account and an unknown
// id get the same 404. The zip is written straight into the response: each video is streamed from PocketBase's
// filesystem (app.NewFilesystem(): the local disk or S3, whichever the settings say), never held in memory. Every
// export is written to the audit log (action "export", the manager, the company, the candidate's id) before the
// first byte is sent, so an export that is cut off is recorded all the same.

// exportFiles is what one candidate's part of an export holds, file by file (the README of an export says it).
const exportFiles = `candidate.json      The candidate: e-mail, names, job, interview status and dates, consent, deadline,
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
`

const exportReadme = `Screenroom: one candidate's data
================================

This archive holds everything Screenroom stores about one candidate, as it was when it was exported.

` + exportFiles + `
Ids are Screenroom's internal record ids. Dates are UTC.
`

const bulkExportReadme = `Screenroom: several candidates' data
====================================

This archive holds everything Screenroom stores about the candidates of one job that were chosen for the export,
as it was when it was exported.

candidates.json     The candidates in this archive: for each, its folder, id, e-mail, names, interview status
                    and decision.
<number>-<id>/      One folder per candidate, holding what the export of that candidate alone holds:

` + exportFiles + `
Ids are Screenroom's internal record ids. Dates are UTC.
`

type exportedFile struct {
	name string
	key  string // the file's key in PocketBase's filesystem
}

type exportEntry struct {
	name string
	data any
}

// candidateExport is one candidate's part of an export, read before it is written: the JSON files, the transcripts
// as text, and the videos to stream from PocketBase's filesystem.
type candidateExport struct {
	jsonEntries []exportEntry
	transcripts []exportEntry
	files       []exportedFile
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
	export, err := readCandidateExport(e.App, candidate, job)
	if err != nil {
		return err
	}
	if err := writeAudit(e.App, job.GetString("company"), actorManager, info.Auth.Id, "export", candidate.Id); err != nil {
		return err
	}
	archive, err := startZip(e, fmt.Sprintf("candidate-%s.zip", candidate.Id), nil)
	if err != nil {
		return err
	}
	defer archive.fsys.Close()
	if err := archive.writeText("README.txt", exportReadme); err != nil {
		return err
	}
	if err := archive.writeCandidate("", export); err != nil {
		return err
	}
	return archive.Close()
}

// ExportCandidates answers e with one zip of the candidates candidateIDs of job (access is the caller's to
// decide), each in a folder of its own holding what a single export holds, with a README and an index
// (candidates.json) at the top; the bulk export's zip. Each candidate's export is written to the audit log (action
// "export" by manager managerID), all in one transaction before the first byte, so an export that is cut off is
// recorded all the same; a candidate erased in the meantime is left out. headers are set on the response before it
// starts. exported: how many candidates the archive holds (0 with an error before the first byte).
func ExportCandidates(e *core.RequestEvent, managerID string, job *core.Record, candidateIDs []string, fileName string, headers func(exported int) map[string]string) (exported int, err error) {
	kept := make([]*core.Record, 0, len(candidateIDs))
	err = e.App.RunInTransaction(func(txApp core.App) error {
		kept = kept[:0]
		for _, id := range candidateIDs {
			current := platform.FindByIdOrNil(txApp, "candidates", id)
			if current == nil || current.GetString("job") != job.Id {
				continue
			}
			if err := writeAudit(txApp, job.GetString("company"), actorManager, managerID, "export", current.Id); err != nil {
				return err
			}
			kept = append(kept, current)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}

	var extra map[string]string
	if headers != nil {
		extra = headers(len(kept))
	}
	archive, err := startZip(e, fileName, extra)
	if err != nil {
		return 0, err
	}
	defer archive.fsys.Close()
	if err := archive.writeText("README.txt", bulkExportReadme); err != nil {
		return len(kept), err
	}
	index := make([]map[string]any, 0, len(kept))
	folders := make([]string, len(kept))
	for i, candidate := range kept {
		folders[i] = fmt.Sprintf("%04d-%s/", i+1, candidate.Id)
		index = append(index, map[string]any{
			"folder": folders[i], "id": candidate.Id, "email": candidate.GetString("email"),
			"firstName": candidate.GetString("firstName"), "lastName": candidate.GetString("lastName"),
			"status": candidate.GetString("status"), "decision": candidate.GetString("decision"),
		})
	}
	if err := archive.writeJSON("candidates.json", index); err != nil {
		return len(kept), err
	}
	for i, candidate := range kept {
		// read as it is now, one candidate at a time: a thousand candidates' transcripts are never all in memory
		export, err := readCandidateExport(e.App, candidate, job)
		if err != nil {
			return len(kept), err
		}
		if err := archive.writeCandidate(folders[i], export); err != nil {
			return len(kept), err
		}
	}
	return len(kept), archive.Close()
}

// readCandidateExport reads what candidate's export holds (job: the candidate's job).
func readCandidateExport(app core.App, candidate, job *core.Record) (*candidateExport, error) {
	answers, err := app.FindRecordsByFilter("answers", "candidate = {:c}", "created", 0, 0, dbx.Params{"c": candidate.Id})
	if err != nil {
		return nil, err
	}
	answerIds := make([]any, len(answers))
	for i, a := range answers {
		answerIds[i] = a.Id
	}
	videosByAnswer := map[string]*core.Record{}
	textsByAnswer := map[string]*core.Record{}
	if len(answerIds) > 0 {
		videos, err := app.FindAllRecords("video_answers", dbx.In("answer", answerIds...))
		if err != nil {
			return nil, err
		}
		for _, v := range videos {
			videosByAnswer[v.GetString("answer")] = v
		}
		texts, err := app.FindAllRecords("text_answers", dbx.In("answer", answerIds...))
		if err != nil {
			return nil, err
		}
		for _, t := range texts {
			textsByAnswer[t.GetString("answer")] = t
		}
	}
	ratings, err := app.FindRecordsByFilter("ratings", "candidate = {:c}", "created", 0, 0, dbx.Params{"c": candidate.Id})
	if err != nil {
		return nil, err
	}
	comments, err := app.FindRecordsByFilter("comments", "candidate = {:c}", "created", 0, 0, dbx.Params{"c": candidate.Id})
	if err != nil {
		return nil, err
	}
	messages, err := app.FindRecordsByFilter("decision_messages", "candidate = {:c}", "sentAt", 0, 0, dbx.Params{"c": candidate.Id})
	if err != nil {
		return nil, err
	}

	export := &candidateExport{}
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
				export.files = append(export.files, exportedFile{name: zipName, key: v.BaseFilesPath() + "/" + name})
				video["file"] = zipName
			}
			if transcript := v.GetString("transcript"); transcript != "" {
				name := "transcripts/" + base + ".txt"
				export.transcripts = append(export.transcripts, exportEntry{name: name, data: transcript})
				video["transcript"] = name
			}
			var segments []any
			if raw := v.GetString("transcriptSegments"); raw != "" && raw != "null" {
				if json.Unmarshal([]byte(raw), &segments) == nil && len(segments) > 0 {
					name := "transcripts/" + base + ".segments.json"
					export.jsonEntries = append(export.jsonEntries, exportEntry{name: name, data: segments})
					video["transcriptSegments"] = name
				}
			}
			item["video"] = video
		}
		exportedAnswers = append(exportedAnswers, item)
	}

	candidateData := candidate.PublicExport()
	delete(candidateData, "expand")
	export.jsonEntries = append([]exportEntry{
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
	}, export.jsonEntries...)
	return export, nil
}

// zipResponse is a zip written straight into a response.
type zipResponse struct {
	*zip.Writer
	e    *core.RequestEvent
	fsys *filesystem.System
	now  time.Time
}

// startZip starts e's answer: a zip download named fileName, with the extra headers given. The caller closes the
// zip, then its filesystem.
func startZip(e *core.RequestEvent, fileName string, extra map[string]string) (*zipResponse, error) {
	fsys, err := e.App.NewFilesystem()
	if err != nil {
		return nil, err
	}
	header := e.Response.Header()
	header.Set("Content-Type", "application/zip")
	header.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s"`, fileName))
	header.Set("Cache-Control", "no-store")
	for name, value := range extra {
		header.Set(name, value)
	}
	e.Response.WriteHeader(http.StatusOK)
	return &zipResponse{Writer: zip.NewWriter(e.Response), e: e, fsys: fsys, now: time.Now().UTC()}, nil
}

func (z *zipResponse) add(name string, method uint16) (io.Writer, error) {
	return z.CreateHeader(&zip.FileHeader{Name: name, Method: method, Modified: z.now})
}

func (z *zipResponse) writeText(name, text string) error {
	w, err := z.add(name, zip.Deflate)
	if err == nil {
		_, err = io.WriteString(w, text)
	}
	return err
}

func (z *zipResponse) writeJSON(name string, data any) error {
	text, err := json.MarshalIndent(data, "", "  ")
	if err != nil {
		return err
	}
	return z.writeText(name, string(text)+"\n")
}

// writeCandidate writes one candidate's export under prefix ("" or a folder ending in "/").
func (z *zipResponse) writeCandidate(prefix string, export *candidateExport) error {
	for _, item := range export.jsonEntries {
		if err := z.writeJSON(prefix+item.name, item.data); err != nil {
			return err
		}
	}
	for _, item := range export.transcripts {
		if err := z.writeText(prefix+item.name, item.data.(string)+"\n"); err != nil {
			return err
		}
	}
	for _, file := range export.files {
		// a long export keeps going while it makes progress: each video gets the server's whole write timeout
		// (PocketBase's 5 minutes would otherwise bound the whole download)
		_ = http.NewResponseController(z.e.Response).SetWriteDeadline(time.Now().Add(5 * time.Minute))
		// videos are compressed already: stored as they are
		w, err := z.add(prefix+file.name, zip.Store)
		if err != nil {
			return err
		}
		reader, err := z.fsys.GetReader(file.key)
		if err != nil {
			z.e.App.Logger().Error("export: a video could not be read", "file", file.key, "error", err.Error())
			continue
		}
		_, err = io.Copy(w, reader)
		reader.Close()
		if err != nil {
			return err
		}
	}
	return nil
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
