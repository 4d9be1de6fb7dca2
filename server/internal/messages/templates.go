package messages

import (
	"net/http"
	"regexp"
	"slices"
	"strings"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"

	"screenroom/server/internal/mail"
	"screenroom/server/internal/platform"
)

// A company's decision templates (decision_templates): its own subject and body for a kind in one language, with
// the placeholders {name}, {job} and {company}. Where it wrote none for the candidate's language, the product's
// default text in that language is sent (mail.DefaultDecisionText), never another language's.

// Kinds are the decisions a message is sent for.
var Kinds = []string{"advance", "reject"}

// IsKind reports whether kind is one of Kinds.
func IsKind(kind string) bool {
	return slices.Contains(Kinds, kind)
}

// KindFieldError is the refusal of a kind that is none of Kinds, on the kind field: the template routes', the send
// route's and the bulk action's.
func KindFieldError() error {
	return platform.FieldError("kind", "Choose advance or reject.", "validation_invalid_value")
}

var placeholders = []string{"{name}", "{job}", "{company}"}

var braced = regexp.MustCompile(`\{[^{}]*\}`)

// placeholderProblem is what is wrong with the braces of a template's text, or nil: every brace must belong to one
// of the placeholders, so a misspelt one is refused when the template is saved instead of reaching a candidate as
// "{nmae}". A placeholder it does not know is named in the error's params (`placeholder`), for the SPA's words.
func placeholderProblem(text string) validation.Error {
	unknown := ""
	rest := braced.ReplaceAllStringFunc(text, func(found string) string {
		if !slices.Contains(placeholders, found) && unknown == "" {
			unknown = found
		}
		return ""
	})
	if unknown != "" {
		return validation.NewError("validation_unknown_placeholder", unknown+" is not a placeholder. Use {name}, {job} or {company}.").
			SetParams(map[string]any{"placeholder": unknown})
	}
	if strings.ContainsAny(rest, "{}") {
		return validation.NewError("validation_stray_brace", "Braces are only for the placeholders {name}, {job} and {company}.")
	}
	return nil
}

// templateErrors checks a template's subject and body as written: placeholders, a subject on one line, nothing
// blank. nil when both are fine.
func templateErrors(subject, body string) validation.Errors {
	errs := validation.Errors{}
	switch {
	case strings.TrimSpace(subject) == "":
		errs["subject"] = validation.NewError("validation_required", "Write a subject.")
	case strings.ContainsAny(subject, "\r\n"):
		errs["subject"] = validation.NewError("validation_single_line", "This field must be on one line.")
	case len([]rune(subject)) > 200:
		errs["subject"] = validation.NewError("validation_max_text_constraint", "Keep the subject to 200 characters.")
	default:
		if problem := placeholderProblem(subject); problem != nil {
			errs["subject"] = problem
		}
	}
	switch {
	case strings.TrimSpace(body) == "":
		errs["body"] = validation.NewError("validation_required", "Write the message.")
	case len([]rune(body)) > 5000:
		errs["body"] = validation.NewError("validation_max_text_constraint", "Keep the message to 5,000 characters.")
	default:
		if problem := placeholderProblem(body); problem != nil {
			errs["body"] = problem
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// fill puts the values in for the placeholders, in one pass (a value that itself reads "{job}" stays as written).
func fill(text, name, job, company string) string {
	return strings.NewReplacer("{name}", name, "{job}", job, "{company}", company).Replace(text)
}

// Template is the text a kind is sent with in a language: the company's own (ID set) or the product's default.
type Template struct {
	ID       string `json:"id"`
	Kind     string `json:"kind"`
	Language string `json:"language"`
	Subject  string `json:"subject"`
	Body     string `json:"body"`
	// Custom: the company wrote it; else it is the default below
	Custom         bool   `json:"custom"`
	DefaultSubject string `json:"defaultSubject"`
	DefaultBody    string `json:"defaultBody"`
}

// EffectiveTemplate is what a message of kind in language is sent with for company companyID: its template, else
// the default text in that language.
func EffectiveTemplate(app core.App, companyID, kind, language string) Template {
	subject, body := mail.DefaultDecisionText(language, kind)
	t := Template{Kind: kind, Language: language, Subject: subject, Body: body, DefaultSubject: subject, DefaultBody: body}
	own := platform.FindFirstOrNil(app, "decision_templates", "company = {:company} && kind = {:kind} && language = {:language}",
		map[string]any{"company": companyID, "kind": kind, "language": language})
	if own != nil {
		t.ID, t.Custom = own.Id, true
		t.Subject, t.Body = own.GetString("subject"), own.GetString("body")
	}
	return t
}

// registerTemplateRules: every write of a template (records API, batch, a superuser) is checked by templateErrors,
// its text trimmed first, and a second template for the same company, kind and language gets the product's words
// (the unique index stays the guarantee).
func registerTemplateRules(app core.App) {
	app.OnRecordValidate("decision_templates").Bind(&hook.Handler[*core.RecordEvent]{
		Func: func(e *core.RecordEvent) error {
			e.Record.Set("subject", strings.TrimSpace(e.Record.GetString("subject")))
			e.Record.Set("body", strings.TrimSpace(e.Record.GetString("body")))
			if errs := templateErrors(e.Record.GetString("subject"), e.Record.GetString("body")); errs != nil {
				return router.NewBadRequestError("The template has errors.", errs)
			}
			err := platform.RefuseDuplicate(e.App, e.Record, "decision_templates",
				map[string]any{"company": e.Record.GetString("company"), "kind": e.Record.GetString("kind"), "language": e.Record.GetString("language")},
				"language", "This company already has its own text for this message in this language.")
			if err != nil {
				return err
			}
			return e.Next()
		},
		// before PocketBase's own field checks, so the product's words are what a client reads
		Priority: -5,
	})
}

// managedCompany is the route's company {id} when the request's user is a verified manager of it; ok false for
// anyone else and an unknown id alike (the same 404).
func managedCompany(e *core.RequestEvent) (company *core.Record, ok bool) {
	user := platform.RequestUser(e)
	if user == nil || !user.Verified() {
		return nil, false
	}
	company = platform.FindByIdOrNil(e.App, "companies", e.Request.PathValue("id"))
	if company == nil || !platform.IsManager(company, user.Id) {
		return nil, false
	}
	return company, true
}

// GET /api/screenroom/companies/{id}/decision-templates: for the company's managers, every kind in every language,
// each as it is sent (the company's own or the default) with the default beside it. 200 {templates: [...]}.
func listTemplates(e *core.RequestEvent) error {
	company, ok := managedCompany(e)
	if !ok {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	templates := make([]Template, 0, len(Kinds)*len(platform.Languages))
	for _, kind := range Kinds {
		for _, language := range platform.Languages {
			templates = append(templates, EffectiveTemplate(e.App, company.Id, kind, language))
		}
	}
	return e.JSON(http.StatusOK, map[string]any{"templates": templates})
}

// sampleCandidateName and sampleJobTitle fill the editor's preview, where there is no candidate yet.
const (
	sampleCandidateName = "Alex"
	sampleJobTitle      = "Product Designer"
)

// POST /api/screenroom/companies/{id}/decision-templates/preview {kind, language, subject, body}: the e-mail a
// template as written (saved or not) makes, for a sample candidate; the same field errors as saving it. For the
// company's managers; 200 {language, dir, subject, text}.
func previewTemplate(e *core.RequestEvent) error {
	company, ok := managedCompany(e)
	if !ok {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	var body struct {
		Kind, Language, Subject, Body string
	}
	if err := e.BindBody(&body); err != nil {
		return e.BadRequestError("The request body is not valid JSON.", err)
	}
	if !IsKind(body.Kind) {
		return KindFieldError()
	}
	if !platform.IsLanguage(body.Language) {
		return platform.FieldError("language", "Choose one of the offered languages.", "validation_invalid_value")
	}
	subject, text := strings.TrimSpace(body.Subject), strings.TrimSpace(body.Body)
	if errs := templateErrors(subject, text); errs != nil {
		return router.NewBadRequestError("The template has errors.", errs)
	}
	name, job, companyName := sampleCandidateName, sampleJobTitle, company.GetString("name")
	message, err := mail.SampleDecisionMail(e.App, company, body.Language, name,
		job, fill(subject, name, job, companyName), fill(text, name, job, companyName))
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, previewJSON(body.Kind, body.Language, message))
}

func previewJSON(kind, language string, message mail.Message) map[string]any {
	dir := "ltr"
	if platform.IsRightToLeft(language) {
		dir = "rtl"
	}
	return map[string]any{"kind": kind, "language": language, "dir": dir, "to": message.To, "subject": message.Subject, "text": message.Text}
}

func registerTemplateRoutes(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/companies/{id}/decision-templates", listTemplates)
		se.Router.POST("/api/screenroom/companies/{id}/decision-templates/preview", previewTemplate).
			Bind(apis.BodyLimit(platform.DecisionMessageMaxBytes))
		return se.Next()
	})
}
