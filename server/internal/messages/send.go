package messages

import (
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"

	"screenroom/server/internal/mail"
	"screenroom/server/internal/platform"
	"screenroom/server/internal/webhooks"
)

// Sending a decision message: only ever because a manager asked (this route, or the bulk action calling
// SendDecisionMessage), never on a decision by itself. The message goes to a candidate the team advanced or
// rejected, in the candidate's language (their own choice on the interview screens, else the job's), with the
// company's template for that language or the default text in it; it is queued (the mail queue sends it), recorded
// in decision_messages as it was sent, and announced to webhooks as candidate.messaged, all in one transaction.

var errNotFound = router.NewNotFoundError("The requested resource wasn't found.", nil)

// prepared is a message ready to go: the candidate read afresh, the words filled in, the letter written.
type prepared struct {
	candidate *core.Record
	kind      string
	language  string
	subject   string
	body      string
	custom    bool
	letter    mail.Message
}

// prepare applies every rule of a decision message, in the order a manager is told about them, and writes the
// letter. The one check of the preview, the send route and the bulk action:
//   - the manager: a verified account managing the candidate's company today (a removed manager, another company's
//     manager, an unverified account, a candidate's key or nobody: 404, as for an unknown candidate);
//   - the kind: advance or reject (400 on kind);
//   - the candidate: not withdrawn by the team (400 on candidate), decided as the kind says (400 on kind), and not
//     yet sent a message of that kind (400 on kind: one per kind, so a repeated bulk action sends nobody twice).
func prepare(app core.App, manager, candidate *core.Record, kind string, preview bool) (*prepared, error) {
	if manager == nil || manager.Collection().Name != "users" || !manager.Verified() || candidate == nil {
		return nil, errNotFound
	}
	candidate = platform.FindByIdOrNil(app, "candidates", candidate.Id)
	if candidate == nil || !platform.ManagesJob(app, candidate.GetString("job"), manager.Id) {
		return nil, errNotFound
	}
	if !IsKind(kind) {
		return nil, KindFieldError()
	}
	if candidate.GetBool("withdrawn") {
		return nil, platform.FieldError("candidate", "This invitation was withdrawn, so the candidate gets no more e-mails about it.", "validation_withdrawn")
	}
	if decision := candidate.GetString("decision"); decision != kind {
		return nil, platform.FieldError("kind", decisionFirst[kind], "validation_decision_mismatch")
	}
	if alreadySent(app, candidate.Id, kind) {
		return nil, platform.FieldError("kind", alreadySentMessage[kind], "validation_already_sent")
	}

	job, company, err := platform.JobAndCompanyOf(app, candidate)
	if err != nil {
		return nil, err
	}
	language := platform.CandidateLanguage(candidate, job)
	template := EffectiveTemplate(app, company.Id, kind, language)
	name := strings.TrimSpace(candidate.GetString("firstName") + " " + candidate.GetString("lastName"))
	if name == "" {
		name = candidate.GetString("email")
	}
	jobTitle, companyName := job.GetString("title"), company.GetString("name")
	// a line break stored in a name before names were held to one line must not split the subject header
	subject := strings.Join(strings.Fields(fill(template.Subject, name, jobTitle, companyName)), " ")
	body := fill(template.Body, name, jobTitle, companyName)
	letter, err := mail.DecisionMail(app, candidate, subject, body, preview)
	if err != nil {
		return nil, err
	}
	return &prepared{candidate: candidate, kind: kind, language: language, subject: subject, body: body, custom: template.Custom, letter: letter}, nil
}

var decisionFirst = map[string]string{
	"advance": "Advance this candidate before sending the advance message.",
	"reject":  "Reject this candidate before sending the reject message.",
}

var alreadySentMessage = map[string]string{
	"advance": "This candidate was already sent the advance message.",
	"reject":  "This candidate was already sent the reject message.",
}

func alreadySent(app core.App, candidateID, kind string) bool {
	return platform.FindFirstOrNil(app, "decision_messages", "candidate = {:candidate} && kind = {:kind}",
		map[string]any{"candidate": candidateID, "kind": kind}) != nil
}

// SendDecisionMessage sends candidate the decision message of kind ("advance" or "reject") on manager's behalf:
// every rule of prepare, then the e-mail queued, the decision_messages record and the candidate.messaged webhook
// event, committed together. One candidate per call. The error is a *router.ApiError a route can return as it is:
// 404 where the manager may not act on the candidate, 400 with a field error (data.kind or data.candidate) for a
// rule the candidate does not meet. Rate limits are the caller's: the send route takes one message action, a bulk
// action one for all its candidates (platform.RequireDecisionMessageAction).
func SendDecisionMessage(app core.App, manager *core.Record, candidate *core.Record, kind string) error {
	_, err := send(app, manager, candidate, kind)
	return err
}

func send(app core.App, manager, candidate *core.Record, kind string) (*core.Record, error) {
	var saved *core.Record
	err := app.RunInTransaction(func(tx core.App) error {
		ready, err := prepare(tx, manager, candidate, kind, false)
		if err != nil {
			return err
		}
		collection, err := tx.FindCachedCollectionByNameOrId("decision_messages")
		if err != nil {
			return err
		}
		record := core.NewRecord(collection)
		record.Set("candidate", ready.candidate.Id)
		record.Set("kind", ready.kind)
		record.Set("language", ready.language)
		record.Set("subject", ready.subject)
		record.Set("body", ready.body)
		record.Set("sentAt", platform.NowText(tx))
		record.Set("sentBy", manager.Id)
		if err := tx.Save(record); err != nil {
			// two sends at once: the unique index refused the second
			if alreadySent(tx, ready.candidate.Id, ready.kind) {
				return platform.FieldError("kind", alreadySentMessage[ready.kind], "validation_already_sent")
			}
			return err
		}
		if _, err := mail.Queue(tx, ready.letter); err != nil {
			return err
		}
		if err := webhooks.RecordMessagedEvent(tx, ready.candidate.Id, record); err != nil {
			return err
		}
		saved = record
		return nil
	})
	if err != nil {
		return nil, err
	}
	return saved, nil
}

// kindOf reads {kind} from a route's JSON body; "" when the body has none.
func kindOf(e *core.RequestEvent) (string, error) {
	var body struct {
		Kind string `json:"kind"`
	}
	if err := e.BindBody(&body); err != nil {
		return "", e.BadRequestError("The request body is not valid JSON.", err)
	}
	return body.Kind, nil
}

// messageRequest is what the preview and the send are asked about: the signed-in manager, the candidate of the
// path and the kind of the body.
func messageRequest(e *core.RequestEvent) (manager, candidate *core.Record, kind string, err error) {
	manager = platform.RequestUser(e)
	candidate = platform.FindByIdOrNil(e.App, "candidates", e.Request.PathValue("id"))
	if manager == nil || candidate == nil {
		return nil, nil, "", errNotFound
	}
	kind, err = kindOf(e)
	return manager, candidate, kind, err
}

// POST /api/screenroom/candidates/{id}/decision-message/preview {kind}: the e-mail the send would queue, as the
// candidate will read it (their data-request link shown without its key), or the refusal the send would give.
// 200 {kind, language, dir, to, subject, text, custom}.
func previewRoute(e *core.RequestEvent) error {
	manager, candidate, kind, err := messageRequest(e)
	if err != nil {
		return err
	}
	ready, err := prepare(e.App, manager, candidate, kind, true)
	if err != nil {
		return err
	}
	out := previewJSON(ready.kind, ready.language, ready.letter)
	out["custom"] = ready.custom
	e.Response.Header().Set("Cache-Control", "no-store")
	return e.JSON(http.StatusOK, out)
}

// POST /api/screenroom/candidates/{id}/decision-message {kind}: sends it (SendDecisionMessage) as one message
// action of the manager's. 200 the decision_messages record.
func sendRoute(e *core.RequestEvent) error {
	manager, candidate, kind, err := messageRequest(e)
	if err != nil {
		return err
	}
	// access first, so a refused request says nothing and spends nothing
	if _, err := prepare(e.App, manager, candidate, kind, true); err != nil {
		return err
	}
	if err := platform.RequireDecisionMessageAction(e.App, manager.Id); err != nil {
		return err
	}
	record, err := send(e.App, manager, candidate, kind)
	if err != nil {
		return err
	}
	if err := apis.EnrichRecord(e, record); err != nil {
		return err
	}
	return e.JSON(http.StatusOK, record)
}

func registerSendRoutes(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/candidates/{id}/decision-message/preview", previewRoute).
			Bind(apis.BodyLimit(platform.DecisionMessageMaxBytes))
		se.Router.POST("/api/screenroom/candidates/{id}/decision-message", sendRoute).
			Bind(apis.BodyLimit(platform.DecisionMessageMaxBytes))
		return se.Next()
	})
}
