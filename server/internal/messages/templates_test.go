package messages

import "testing"

func TestPlaceholders(t *testing.T) {
	for text, want := range map[string]string{
		"Hello {name}, about {job} at {company}": "",
		"No placeholder at all":                  "",
		"Dear {nmae}":                            "{nmae} is not a placeholder. Use {name}, {job} or {company}.",
		"{Name}":                                 "{Name} is not a placeholder. Use {name}, {job} or {company}.",
		"{ name }":                               "{ name } is not a placeholder. Use {name}, {job} or {company}.",
		"An open { brace":                        "Braces are only for the placeholders {name}, {job} and {company}.",
		"{job}}":                                 "Braces are only for the placeholders {name}, {job} and {company}.",
		"{{job}}":                                "Braces are only for the placeholders {name}, {job} and {company}.",
		"{}":                                     "{} is not a placeholder. Use {name}, {job} or {company}.",
	} {
		got := ""
		if problem := placeholderProblem(text); problem != nil {
			got = problem.Error()
		}
		if got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}

func TestAnUnknownPlaceholderIsNamedInTheParams(t *testing.T) {
	problem := placeholderProblem("Dear {nmae} at {company}")
	if problem == nil || problem.Code() != "validation_unknown_placeholder" || problem.Params()["placeholder"] != "{nmae}" {
		t.Errorf("%#v", problem)
	}
	if problem := placeholderProblem("a } alone"); problem == nil || problem.Code() != "validation_stray_brace" {
		t.Errorf("%#v", problem)
	}
}

func TestTemplateErrors(t *testing.T) {
	if errs := templateErrors("Next steps for {job}", "Hello {name}\n\nBye"); errs != nil {
		t.Errorf("a good template: %v", errs)
	}
	errs := templateErrors("Two\nlines", "  ")
	if errs["subject"] == nil || errs["subject"].Error() != "This field must be on one line." {
		t.Errorf("subject: %v", errs["subject"])
	}
	if errs["body"] == nil || errs["body"].Error() != "Write the message." {
		t.Errorf("body: %v", errs["body"])
	}
	long := make([]rune, 201)
	for i := range long {
		long[i] = 'é'
	}
	if errs := templateErrors(string(long), "ok"); errs["subject"] == nil {
		t.Error("201 characters of subject accepted")
	}
	if errs := templateErrors(string(long[:200]), "ok"); errs != nil {
		t.Errorf("200 two-byte characters refused: %v", errs)
	}
}

func TestFillPutsValuesInOnce(t *testing.T) {
	got := fill("{name} / {job} / {company} / {name}", "{job}", "R&D", "Acme")
	if got != "{job} / R&D / Acme / {job}" {
		t.Errorf("%q", got)
	}
}
