package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func startAnswer() *interviewAnswer {
	return &interviewAnswer{
		CandidateID: "c1",
		CompanyName: "Globex Hiring",
		JobTitle:    "Support engineer",
		Questions: []interviewQuestion{
			{ID: "q1", Title: "Why", Timeout: 90, Kind: "text"},
			{ID: "q2", Title: "How", Timeout: 60, Kind: "video"},
		},
		AnsweredQuestionIDs: []string{},
	}
}

func mustRender(t *testing.T, answer *interviewAnswer) string {
	t.Helper()
	markup, ok := renderInterviewStart(answer)
	if !ok {
		t.Fatal("the start screen was not written")
	}
	return markup
}

func TestFirstScreenStartScreen(t *testing.T) {
	markup := mustRender(t, startAnswer())
	for _, want := range []string{
		`<h1 class="rt-Heading rt-r-size-7">Interview at Globex Hiring</h1>`,
		`<span class="rt-Text rt-r-size-4">Support engineer</span>`,
		`There are 2 questions, about 3 minutes of answers in all. Each has a time limit, shown before you start it. Video answers need your camera and microphone.`,
		`Your answers will be seen by the hiring team at Globex Hiring.`,
		`<input id="first-screen-agree" type="checkbox" disabled=""`,
		`disabled="" class="rt-reset rt-BaseButton rt-r-size-3 rt-variant-solid rt-Button">Start Interview</button>`,
	} {
		if !strings.Contains(markup, want) {
			t.Errorf("missing %q in\n%s", want, markup)
		}
	}
	for _, absent := range []string{"<img", "Welcome back", "Please finish by", "privacy policy", "welcome-message", "checked"} {
		if strings.Contains(markup, absent) {
			t.Errorf("unexpected %q in\n%s", absent, markup)
		}
	}
}

func TestFirstScreenVariants(t *testing.T) {
	one := startAnswer()
	one.Questions = one.Questions[:1]
	one.Questions[0].Timeout = 20
	if markup := mustRender(t, one); !strings.Contains(markup, "There is 1 question, about 1 minute of answers in all.") {
		t.Errorf("one short question: %s", markup)
	}

	untimed := startAnswer()
	for i := range untimed.Questions {
		untimed.Questions[i].Untimed = true
	}
	if markup := mustRender(t, untimed); !strings.Contains(markup, "There are 2 questions. Take the time you need: there is no time limit.") {
		t.Errorf("untimed: %s", markup)
	}

	back := startAnswer()
	back.AnsweredQuestionIDs = []string{"q1"}
	back.ConsentedAt = "2026-11-20 10:00:00.000Z"
	back.Deadline = "2026-12-01 17:30:00.000Z"
	back.CompanyLogoURL = "/api/files/pbc_1/abc/logo_x.png"
	back.WelcomeMessage = "Hello!\nTake your time."
	back.PrivacyURL = "https://globex.example.com/privacy"
	markup := mustRender(t, back)
	for _, want := range []string{
		"Welcome back: you have answered 1 of 2. You continue where you left off.",
		"Please finish by December 1, 2026 at 5:30 PM UTC.",
		`<img src="/api/files/pbc_1/abc/logo_x.png" alt="" width="48" height="48"`,
		`style="white-space: pre-wrap;">Hello!` + "\n" + `Take your time.</p>`,
		`<a href="https://globex.example.com/privacy" target="_blank" rel="noopener noreferrer"`,
		`type="checkbox" checked="" disabled=""`,
	} {
		if !strings.Contains(markup, want) {
			t.Errorf("missing %q in\n%s", want, markup)
		}
	}
}

func TestFirstScreenOtherScreens(t *testing.T) {
	closed := startAnswer()
	closed.Closed = &interviewClosed{Reason: "deadline", At: "2026-11-01 10:00:00.000Z"}
	done := startAnswer()
	done.AnsweredQuestionIDs = []string{"q1", "q2"}
	empty := startAnswer()
	empty.Questions = nil
	badDeadline := startAnswer()
	badDeadline.Deadline = "not a date"
	for name, answer := range map[string]*interviewAnswer{"closed": closed, "all answered": done, "no questions": empty, "bad deadline": badDeadline} {
		if markup, ok := renderInterviewStart(answer); ok {
			t.Errorf("%s: a start screen was written: %s", name, markup)
		}
	}
}

func TestFirstScreenEscapes(t *testing.T) {
	answer := startAnswer()
	answer.CompanyName = `Globex <script>alert(1)</script> & "Co"`
	answer.JobTitle = `<img src=x onerror=alert(2)>`
	answer.WelcomeMessage = `</p><script>alert(3)</script>`
	answer.PrivacyURL = "javascript:alert(4)"
	answer.CompanyLogoURL = `/api/files/x" onload="alert(5)`
	markup := mustRender(t, answer)
	for _, raw := range []string{"<script", "<img src=x", "javascript:", `" onload="`} {
		if strings.Contains(markup, raw) {
			t.Errorf("%q reached the markup unescaped:\n%s", raw, markup)
		}
	}
	if !strings.Contains(markup, "Interview at Globex &lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;Co&#34;") {
		t.Errorf("the company's name is not escaped as text:\n%s", markup)
	}

	// the embedded read: encoding/json writes < > & as \u escapes, so no value ends the script element
	data, err := json.Marshal(answer)
	if err != nil {
		t.Fatal(err)
	}
	page := string((&firstScreenShell{beforeData: "<head>", beforeScreen: "<div>", afterScreen: "</div>"}).page(firstScreenJSONID, data, markup, ""))
	if strings.Count(page, "</script>") != 1 {
		t.Errorf("a value closed the JSON element early:\n%s", page)
	}
}

const builtIndex = `<!doctype html>
<html lang="en">
  <head>
    <script>(prefetch)</script>
    <title>Screenroom</title>
    <script type="module" crossorigin src="/assets/index-AbC.js"></script>
    <link rel="stylesheet" crossorigin href="/assets/index-XyZ.css">
    <script>(function(){var p=location.pathname,t=[["^\\/candidates\\/",["/assets/layout-A.js"]],["^\\/(auth\\/)?sign-in\\/?$",["/assets/auth-layout-Q.js","/assets/auth-layout-Q.css"]],["^\\/companies\\/[^/]+(\\/jobs)?\\/?$",["/assets/shell-S.js","/assets/shell-S.css"]]],e=0;(preload)})()</script>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>
`

func TestFirstScreenShell(t *testing.T) {
	read := func(css string) func(string) ([]byte, error) {
		return func(path string) ([]byte, error) {
			switch path {
			case "/assets/index-XyZ.css":
				return []byte(css), nil
			case "/assets/auth-layout-Q.css":
				return []byte(".rt-TextFieldRoot{display:flex}"), nil
			case "/assets/shell-S.css":
				return []byte(".shell{}"), nil
			}
			return nil, errors.New("no such asset: " + path)
		}
	}
	shell := cutFirstScreenShell(builtIndex, read(".rt-Text{color:red}"))
	if shell == nil {
		t.Fatal("no shell cut from the built index.html")
	}
	page := string(shell.page(firstScreenJSONID, []byte(`{"candidateId":"c1"}`), "<p>screen</p>", ""))
	for _, want := range []string{
		`<html lang="en" data-entry="/assets/index-AbC.js">`,
		`<head><script type="application/json" id="screenroom-interview">{"candidateId":"c1"}</script>` + "\n    <script>(prefetch)</script>",
		`<style>.rt-Text{color:red}</style>`,
		`;(preload)})()</script>`,
		`<div id="root" data-first-screen=""><p>screen</p></div>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("missing %q in\n%s", want, page)
		}
	}
	if strings.Contains(page, `src="/assets/index-AbC.js"`) || strings.Contains(page, "<link rel=\"stylesheet\"") {
		t.Errorf("the entry's script or stylesheet is still linked:\n%s", page)
	}

	// the company home: the shell's stylesheet inline, with a disabled link to its file (never fetched; the app's
	// preloads see it and do not download the file again)
	if shell.companyHomeCSS != `<style>.shell{}</style><link rel="stylesheet" crossorigin href="/assets/shell-S.css" disabled="">` {
		t.Errorf("the company home's stylesheets: %q", shell.companyHomeCSS)
	}
	home := string(shell.page(companyHomeJSONID, []byte(`{}`), "<p>home</p>", shell.companyHomeCSS))
	if !strings.Contains(home, `<style>.shell{}</style><link rel="stylesheet" crossorigin href="/assets/shell-S.css" disabled=""></head>`) {
		t.Errorf("the company home's page lacks its stylesheet link:\n%s", home)
	}

	// the sign-in page: both stylesheets inline, its markup, no interview
	signIn := string(shell.signIn)
	for _, want := range []string{
		`<style>.rt-Text{color:red}</style>`,
		`<style>.rt-TextFieldRoot{display:flex}</style><link rel="stylesheet" crossorigin href="/assets/auth-layout-Q.css" disabled=""></head>`,
		`<div id="root" data-first-screen=""><div data-is-root-theme="true"`,
		`<h1 class="rt-Heading rt-r-size-6 rt-r-ta-center">Sign In</h1>`,
		`name="password" readonly=""`,
		`type="submit" data-disabled="true" disabled=""`,
	} {
		if !strings.Contains(signIn, want) {
			t.Errorf("sign-in page: missing %q in\n%s", want, signIn)
		}
	}
	reader, err := gzip.NewReader(bytes.NewReader(shell.signInGzip))
	if err != nil {
		t.Fatal(err)
	}
	if unzipped, err := io.ReadAll(reader); err != nil || !bytes.Equal(unzipped, shell.signIn) {
		t.Errorf("the sign-in page's gzip is not the page (%v)", err)
	}
	if strings.Contains(signIn, "screenroom-interview") {
		t.Error("the sign-in page carries an interview")
	}
	noTable := strings.Replace(builtIndex, "t=[[", "t=[", 1)
	if shell := cutFirstScreenShell(noTable, read("a{}")); shell == nil || shell.signIn != nil {
		t.Error("without the route table the candidate's pages are still written and the sign-in page is not")
	}

	if cutFirstScreenShell(builtIndex, read("a{}</STYLE><script>")) != nil {
		t.Error("a stylesheet that would end the style element was inlined")
	}
	if cutFirstScreenShell(strings.Replace(builtIndex, `<div id="root"></div>`, `<div id="app"></div>`, 1), read("a{}")) != nil {
		t.Error("a shell was cut from an index.html without the root element")
	}
	if cutFirstScreenShell(builtIndex, read("")) == nil {
		t.Error("an empty stylesheet should still be inlined")
	}
}
