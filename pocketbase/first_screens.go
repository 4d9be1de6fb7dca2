package main

// First screens from the server (issue 20 point 2): the two pages a visitor most often opens cold on a phone are
// answered with their first screen already written into index.html, so they are read as soon as the HTML has come,
// without waiting for the scripts (on a throttled phone the entry alone is ~80 KB, a second and more):
//
//   - GET /candidates/{key}, the page an invitation links to: the candidate's start screen, with the interview read
//     the app needs beside it in the head (the app starts from it instead of asking again);
//   - GET /auth/sign-in (without a query): the sign-in screen, the same for everyone.
//
// The entry's stylesheet (and the sign-in layout's) is inline, and the page's scripts are fetched after its first
// paint (the route preload script in index.html sees the html element's data-entry, scripts/vite-route-preload.ts):
// fetched at once, they would share the phone's link with the page itself. The app then starts as always, and its
// first render (once its route is loaded, src/main.tsx) replaces the written markup with the same markup in one step
// (the container is emptied and filled in one task, as React's createRoot does), so nothing moves. Until then the
// controls are inert: the start screen's box and button are disabled, the sign-in
// fields read-only and its button disabled (a form without its script must never submit: it would put the password
// in the address), so nothing typed is lost when the app takes over.
//
// Only the plain start screen is written: an unknown or refused key, a closed interview and one with nothing left to
// answer fall through to the ordinary index.html, whose app shows what it shows today. The markup mirrors the React
// screens (src/app/layouts/candidate-layout.tsx with src/features/interview/screens/interview-start.tsx and
// interview-brand.tsx; src/app/layouts/auth-layout.tsx with src/features/auth/screens/sign-in.tsx; provider.tsx's
// theme frame); e2e/first-screens.spec.ts compares the server's copy with the app's in a browser, element by element
// and attribute by attribute, for each variant, and fails on any difference. What the server cannot know is said
// plainly: the deadline is given in UTC (the app writes it in the candidate's own time zone a moment later).
//
// Security: the candidate's page answers what GET /api/screenroom/interviews/{key} answers to the same key, through
// the same loadInterview (the key, the candidate's view rule); the key is the credential either way. It is sent with
// no-store (a candidate's page is personal), no-referrer and the build's Content-Security-Policy; every value in the
// markup is escaped by html/template, and the embedded JSON by encoding/json (<, > and & as \u escapes), inside a
// JSON script element the browser never runs.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"html/template"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

// a candidate's link: the key's form is interview_read.go's candidateKeyPattern
var interviewPagePath = regexp.MustCompile(`^/candidates/([^/]+)/?$`)

// firstScreenJSONID: the element the interview's read is embedded in (scripts/vite-interview-prefetch.ts reads it).
const firstScreenJSONID = "screenroom-interview"

func registerFirstScreens(app core.App, publicDir string) {
	pages := &firstScreenShells{indexPath: filepath.Join(publicDir, "index.html"), publicDir: publicDir}
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.BindFunc(func(e *core.RequestEvent) error {
			if e.Request.Method != http.MethodGet {
				return e.Next()
			}
			if match := companyHomePagePath.FindStringSubmatch(e.Request.URL.Path); match != nil && e.Request.URL.RawQuery == "" {
				shell := pages.current(e.App)
				if shell == nil || shell.companyHomeCSS == "" {
					return e.Next()
				}
				return serveCompanyHome(e, shell, match[1])
			}
			if e.Request.URL.Path == signInPagePath && e.Request.URL.RawQuery == "" {
				shell := pages.current(e.App)
				if shell == nil || shell.signIn == nil {
					return e.Next()
				}
				return sendFirstScreen(e, shell.signIn, shell.signInGzip, "no-cache")
			}
			match := interviewPagePath.FindStringSubmatch(e.Request.URL.Path)
			if match == nil || !candidateKeyPattern.MatchString(match[1]) {
				return e.Next()
			}
			shell := pages.current(e.App)
			if shell == nil {
				return e.Next() // no build to serve (development, the integration tests): the ordinary route
			}
			answer, err := loadInterview(e, match[1])
			if err != nil {
				// an invalid link: the app says so, as before; a failed read: the app reads again and shows its
				// own error with 'Reload the page', never a JSON error in place of the page
				if err != errInterviewNotValid {
					e.App.Logger().Error("first screens: the interview could not be read; the page is served without it", "error", err)
				}
				return e.Next()
			}
			markup, ok := renderInterviewStart(answer)
			if !ok {
				return e.Next()
			}
			data, err := json.Marshal(answer)
			if err != nil {
				return err
			}
			return sendFirstScreen(e, shell.page(firstScreenJSONID, data, markup, ""), nil, "no-store")
		})
		return se.Next()
	})
}

// sendFirstScreen: the page gzip-compressed when the browser takes it (the inline stylesheet is most of its bytes);
// `compressed` when it was compressed before.
func sendFirstScreen(e *core.RequestEvent, page, compressed []byte, cacheControl string) error {
	headers := e.Response.Header()
	headers.Set("Content-Type", "text/html; charset=utf-8")
	headers.Set("Cache-Control", cacheControl)
	headers.Set("Referrer-Policy", "no-referrer")
	headers.Add("Vary", "Accept-Encoding")
	if policy, _ := e.App.Store().Get("screenroom.contentSecurityPolicy").(string); policy != "" {
		headers.Set("Content-Security-Policy", policy)
	}
	if !strings.Contains(e.Request.Header.Get("Accept-Encoding"), "gzip") {
		return e.Blob(http.StatusOK, "text/html; charset=utf-8", page)
	}
	if compressed == nil {
		var err error
		if compressed, err = gzipPage(page); err != nil {
			return err
		}
	}
	headers.Set("Content-Encoding", "gzip")
	return e.Blob(http.StatusOK, "text/html; charset=utf-8", compressed)
}

func gzipPage(page []byte) ([]byte, error) {
	var compressed bytes.Buffer
	writer := gzipWriters.Get().(*gzip.Writer)
	writer.Reset(&compressed)
	if _, err := writer.Write(page); err != nil {
		return nil, err
	}
	if err := writer.Close(); err != nil {
		return nil, err
	}
	gzipWriters.Put(writer)
	return compressed.Bytes(), nil
}

var gzipWriters = sync.Pool{New: func() any {
	writer, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return writer
}}

// firstScreenShell: index.html cut where the page's own parts go, with the entry's stylesheet inline and its module
// script left to the route preload script (after the first paint).
type firstScreenShell struct {
	beforeData, beforeScreen, afterScreen string
	// signIn: the whole sign-in page (it holds nothing personal) and its gzip, or nil when its stylesheets were not
	// found
	signIn, signInGzip []byte
	// companyHomeCSS: the manager shell's and the jobs list's stylesheets as style elements, "" when not found
	companyHomeCSS string
}

// page: the shell around `markup`, with `data` in the head as the JSON script element `id` when not nil, and
// `styles` (style elements) at the end of the head.
func (s *firstScreenShell) page(id string, data []byte, markup, styles string) []byte {
	var page bytes.Buffer
	page.Grow(len(s.beforeData) + len(s.beforeScreen) + len(s.afterScreen) + len(data) + len(markup) + len(styles) + 80)
	page.WriteString(s.beforeData)
	if data != nil {
		page.WriteString(`<script type="application/json" id="` + id + `">`)
		page.Write(data)
		page.WriteString(`</script>`)
	}
	if styles == "" {
		page.WriteString(s.beforeScreen)
	} else {
		headEnd := strings.Index(s.beforeScreen, "</head>")
		page.WriteString(s.beforeScreen[:headEnd])
		page.WriteString(styles)
		page.WriteString(s.beforeScreen[headEnd:])
	}
	page.WriteString(markup)
	page.WriteString(s.afterScreen)
	return page.Bytes()
}

var (
	entryScriptTag = regexp.MustCompile(`<script type="module" crossorigin src="(/assets/[^"<>]+\.js)"></script>\s*`)
	entryStyleTag  = regexp.MustCompile(`<link rel="stylesheet" crossorigin href="(/assets/[^"<>]+\.css)">`)
)

// cutFirstScreenShell: nil when index.html is not the build it expects (then pages are served as they are).
func cutFirstScreenShell(index string, readAsset func(path string) ([]byte, error)) *firstScreenShell {
	entry := entryScriptTag.FindStringSubmatch(index)
	style := entryStyleTag.FindStringSubmatch(index)
	if entry == nil || style == nil {
		return nil
	}
	inlineCSS, ok := inlineStyle(style[1], readAsset)
	if !ok {
		return nil
	}
	// the sign-in screen's own stylesheets (its lazy layout's), named in the route preload script's table
	signInCSS, signInOK := routeStylesheets(index, signInPagePath, readAsset)
	// the manager shell's and the jobs list's (company_home_screen.go)
	companyHomeCSS, companyHomeOK := routeStylesheets(index, companyHomeExamplePath, readAsset)
	index = strings.Replace(index, entry[0], "", 1)
	index = strings.Replace(index, style[0], inlineCSS, 1)
	const html, head, root = `<html lang="en"`, "<head>", `<div id="root"></div>`
	if strings.Count(index, html) != 1 || strings.Count(index, head) != 1 || strings.Count(index, root) != 1 {
		return nil
	}
	index = strings.Replace(index, html, html+` data-entry="`+template.HTMLEscapeString(entry[1])+`"`, 1)
	headEnd := strings.Index(index, head) + len(head)
	rootAt := strings.Index(index, root)
	shell := &firstScreenShell{
		beforeData:   index[:headEnd],
		beforeScreen: index[headEnd:rootAt] + `<div id="root" data-first-screen="">`,
		afterScreen:  `</div>` + index[rootAt+len(root):],
	}
	if strings.Count(shell.beforeScreen, "</head>") != 1 {
		return shell
	}
	if signInOK {
		page := shell.page("", nil, signInMarkup, signInCSS)
		if compressed, err := gzipPage(page); err == nil {
			shell.signIn, shell.signInGzip = page, compressed
		}
	}
	if companyHomeOK && companyHomeCSS != "" {
		shell.companyHomeCSS = companyHomeCSS
	}
	return shell
}

// inlineStyle: the stylesheet at `path` (one of the build's assets) as a style element; false when it cannot be read
// or would end the element early.
func inlineStyle(path string, readAsset func(path string) ([]byte, error)) (string, bool) {
	if !strings.HasPrefix(path, "/assets/") || strings.Contains(path, "..") {
		return "", false
	}
	css, err := readAsset(path)
	if err != nil || bytes.Contains(bytes.ToLower(css), []byte("</style")) {
		return "", false
	}
	return "<style>" + string(css) + "</style>", true
}

var routeTable = regexp.MustCompile(`,t=(\[\[.*?\]\]\])[,;]`)

// routeStylesheets: the stylesheets scripts/vite-route-preload.ts preloads for `path` (its table's first pattern
// matching it), read and inlined; false when the table, the entry or a file is missing. Each comes with a disabled
// link to its file, which browsers do not fetch: the route preload script and Vite's preload of the app's chunk
// (which imports the file) find it and do not download the file again.
func routeStylesheets(index, path string, readAsset func(path string) ([]byte, error)) (string, bool) {
	found := routeTable.FindStringSubmatch(index)
	if found == nil {
		return "", false
	}
	var table [][]json.RawMessage
	if err := json.Unmarshal([]byte(found[1]), &table); err != nil {
		return "", false
	}
	for _, row := range table {
		var pattern string
		var files []string
		if len(row) != 2 || json.Unmarshal(row[0], &pattern) != nil || json.Unmarshal(row[1], &files) != nil {
			return "", false
		}
		matcher, err := regexp.Compile(pattern)
		if err != nil || !matcher.MatchString(path) {
			continue
		}
		var styles strings.Builder
		for _, file := range files {
			if !strings.HasSuffix(file, ".css") {
				continue
			}
			inline, ok := inlineStyle(file, readAsset)
			if !ok || strings.ContainsAny(file, "\"<>&") {
				return "", false
			}
			styles.WriteString(inline)
			styles.WriteString(`<link rel="stylesheet" crossorigin href="` + file + `" disabled="">`)
		}
		return styles.String(), true
	}
	return "", false
}

// firstScreenShells keeps the shell of the index.html on disk, cut again when the file changes (a new build).
type firstScreenShells struct {
	indexPath, publicDir string
	mu                   sync.Mutex
	modTime              time.Time
	size                 int64
	shell                *firstScreenShell
}

func (s *firstScreenShells) current(app core.App) *firstScreenShell {
	stat, err := os.Stat(s.indexPath)
	if err != nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if stat.ModTime().Equal(s.modTime) && stat.Size() == s.size {
		return s.shell
	}
	s.modTime, s.size, s.shell = stat.ModTime(), stat.Size(), nil
	index, err := os.ReadFile(s.indexPath)
	if err != nil {
		return nil
	}
	s.shell = cutFirstScreenShell(string(index), func(path string) ([]byte, error) {
		return os.ReadFile(filepath.Join(s.publicDir, filepath.FromSlash(strings.TrimPrefix(path, "/"))))
	})
	if s.shell == nil {
		app.Logger().Warn("first screens: index.html is not the build it expects; pages are served without their first screen", "path", s.indexPath)
	}
	return s.shell
}

// themeFrame: the opening of src/app/provider.tsx's ThemeFrame, around every screen (closed by the screen's markup).
const themeFrame = `<div data-is-root-theme="true" data-accent-color="indigo" data-gray-color="slate" data-has-background="true" data-panel-background="translucent" data-radius="medium" data-scaling="100%" class="radix-themes">`

// companyHomeExamplePath: a company home's address (any company's: a record id is 15 characters), to find the
// screen's stylesheets in the route preload script's table, whose rows are patterns of addresses
// (vite.config.ts routePreload).
var companyHomeExamplePath = "/companies/" + strings.Repeat("x", 15) + "/jobs"

// signInPagePath: the sign-in screen, written by the server like a candidate's start screen (issue 20 point 2).
const signInPagePath = "/auth/sign-in"

// signInMarkup: src/app/layouts/auth-layout.tsx around src/features/auth/screens/sign-in.tsx as Radix Themes renders
// them (e2e/first-screens.spec.ts compares the two). Until the app runs, the fields are read-only and the
// button disabled: nothing typed is lost when the app takes the form over, and a form without its script never
// submits (it would send the password in the address).
const signInMarkup = themeFrame +
	`<div class="rt-Flex rt-r-fd-column rt-r-ai-center rt-r-jc-center rt-r-gap-5 rt-r-px-4 rt-r-py-8 rt-r-min-h" style="--min-height: 100vh;">` +
	`<div class="rt-Flex rt-r-ai-center rt-r-gap-2"><svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">` +
	`<rect width="32" height="32" rx="7" fill="var(--accent-9)"></rect><rect x="6" y="9" width="14" height="14" rx="3" fill="var(--accent-contrast)"></rect>` +
	`<path d="M21 14.5 26 11v10l-5-3.5z" fill="var(--accent-contrast)"></path></svg>` +
	`<span class="rt-Text rt-r-size-6 rt-r-weight-bold rt-high-contrast">Screenroom</span></div>` +
	`<div class="rt-Box rt-r-w rt-r-max-w" style="--width: 100%; --max-width: 420px;"><div class="rt-reset rt-BaseCard rt-Card rt-r-size-3 rt-variant-surface">` +
	`<div class="rt-Flex rt-r-fd-column rt-r-gap-4"><h1 class="rt-Heading rt-r-size-6 rt-r-ta-center">Sign In</h1>` +
	`<form novalidate=""><div class="rt-Flex rt-r-fd-column rt-r-gap-3">` +
	`<div class="rt-Flex rt-r-fd-column rt-r-gap-1"><label for="first-screen-email" class="rt-Text rt-r-size-2 rt-r-weight-medium">Email</label>` +
	`<div class="rt-TextFieldRoot rt-r-size-2 rt-variant-surface"><input spellcheck="false" id="first-screen-email" aria-invalid="false" type="email" autocomplete="email" name="email" readonly="" class="rt-reset rt-TextFieldInput"></div></div>` +
	`<div class="rt-Flex rt-r-fd-column rt-r-gap-1"><label for="first-screen-password" class="rt-Text rt-r-size-2 rt-r-weight-medium">Password</label>` +
	`<div class="rt-TextFieldRoot rt-r-size-2 rt-variant-surface"><input spellcheck="false" id="first-screen-password" aria-invalid="false" type="password" autocomplete="current-password" name="password" readonly="" class="rt-reset rt-TextFieldInput"></div></div>` +
	`<a data-accent-color="" href="/auth/reset-password" data-discover="true" class="rt-Text rt-reset rt-Link rt-r-size-2 rt-underline-auto">Forgot your password?</a>` +
	`<button data-accent-color="" type="submit" data-disabled="true" disabled="" class="rt-reset rt-BaseButton rt-r-size-3 rt-variant-solid rt-Button">Sign In</button>` +
	`<div class="rt-Flex rt-r-ai-center rt-r-gap-3 rt-r-my-1"><span data-accent-color="gray" class="rt-Separator rt-r-orientation-horizontal rt-r-size-4" style="flex: 1 1 0%;"></span>` +
	`<span data-accent-color="gray" class="rt-Text rt-r-size-1">or</span><span data-accent-color="gray" class="rt-Separator rt-r-orientation-horizontal rt-r-size-4" style="flex: 1 1 0%;"></span></div>` +
	`<a data-accent-color="" href="/auth/sign-up" data-discover="true" class="rt-reset rt-BaseButton rt-r-size-3 rt-variant-outline rt-Button">Sign Up</a>` +
	`</div></form></div></div></div>` +
	`<footer class="rt-Flex rt-r-fd-column rt-r-ai-center rt-r-gap-1"><span data-accent-color="gray" class="rt-Text rt-r-size-1">© 2024 Screenroom</span>` +
	`<a data-accent-color="gray" href="https://pocketbase.io" target="_blank" rel="noreferrer" class="rt-Text rt-reset rt-Link rt-r-size-1 rt-underline-auto">` +
	`<span class="rt-Flex rt-r-ai-center rt-r-gap-1"><svg width="12" height="12" viewBox="0 0 16 16" aria-hidden="true" focusable="false">` +
	`<rect x="1" y="1" width="14" height="14" rx="3" fill="none" stroke="currentColor" stroke-width="1.5"></rect>` +
	`<path d="M5.5 12V4h3a2.25 2.25 0 0 1 0 4.5h-3" fill="none" stroke="currentColor" stroke-width="1.5"></path></svg>Powered by PocketBase</span></a>` +
	`</footer></div></div>`

type interviewStartView struct {
	Logo, Company, JobTitle, Summary, Deadline, Welcome, Privacy string
	Answered, Total                                              int
	Agreed                                                       bool
}

// The markup of candidate-layout.tsx's frame around interview-start.tsx, as Radix Themes renders it.
var interviewStartTemplate = template.Must(template.New("start").Parse(
	themeFrame +
		`<div class="rt-Container rt-r-size-2 rt-r-px-4 rt-r-py-6"><div class="rt-ContainerInner">` +
		`<div class="rt-Flex rt-r-jc-center rt-r-mb-6"><div data-testid="interview-brand" class="rt-Flex rt-r-ai-center rt-r-gap-3">` +
		`{{if .Logo}}<img src="{{.Logo}}" alt="" width="48" height="48" style="object-fit: contain; border-radius: 8px;">{{end}}` +
		`<div class="rt-Flex rt-r-fd-column"><span class="rt-Text rt-r-size-5 rt-r-weight-bold rt-high-contrast">{{.Company}}</span>` +
		`{{if .JobTitle}}<span data-accent-color="gray" class="rt-Text rt-r-size-2">{{.JobTitle}}</span>{{end}}</div></div></div>` +
		`<main><div class="rt-reset rt-BaseCard rt-Card rt-r-size-4 rt-variant-surface"><div class="rt-Flex rt-r-fd-column rt-r-ai-start rt-r-gap-4">` +
		`<h1 class="rt-Heading rt-r-size-7">Interview at {{.Company}}</h1>` +
		`{{if .JobTitle}}<span class="rt-Text rt-r-size-4">{{.JobTitle}}</span>{{end}}` +
		`<p data-accent-color="gray" class="rt-Text">{{.Summary}}</p>` +
		`{{if .Deadline}}<p data-testid="interview-deadline" class="rt-Text rt-r-weight-medium">Please finish by {{.Deadline}}.</p>{{end}}` +
		`{{if .Welcome}}<p data-testid="welcome-message" class="rt-Text" style="white-space: pre-wrap;">{{.Welcome}}</p>{{end}}` +
		`{{if .Answered}}<p class="rt-Text">Welcome back: you have answered {{.Answered}} of {{.Total}}. You continue where you left off.</p>{{end}}` +
		`<section aria-labelledby="first-screen-agree-heading" class="rt-Flex rt-r-fd-column rt-r-gap-2">` +
		`<h2 id="first-screen-agree-heading" class="rt-Heading rt-r-size-4">Before you start</h2>` +
		`<p class="rt-Text">Your answers will be seen by the hiring team at {{.Company}}.</p>` +
		`{{if .Privacy}}<p class="rt-Text"><a href="{{.Privacy}}" target="_blank" rel="noopener noreferrer" data-accent-color="" class="rt-Text rt-reset rt-Link rt-underline-auto">Read {{.Company}}'s privacy policy</a></p>{{end}}` +
		`<label for="first-screen-agree" class="rt-Text rt-r-size-3"><div class="rt-Flex rt-r-ai-center rt-r-gap-2">` +
		`<input id="first-screen-agree" type="checkbox"{{if .Agreed}} checked=""{{end}} disabled="" style="width: 18px; height: 18px;">I agree</div></label>` +
		`</section>` +
		`<button data-disabled="true" data-accent-color="" disabled="" class="rt-reset rt-BaseButton rt-r-size-3 rt-variant-solid rt-Button">Start Interview</button>` +
		`</div></div></main></div></div></div>`))

// renderInterviewStart: the start screen's markup, and false where the app would show another screen (closed,
// nothing left to answer).
func renderInterviewStart(answer *interviewAnswer) (string, bool) {
	if answer.Closed != nil || len(answer.Questions) == 0 {
		return "", false
	}
	answered := map[string]bool{}
	for _, id := range answer.AnsweredQuestionIDs {
		answered[id] = true
	}
	view := interviewStartView{
		Logo:     answer.CompanyLogoURL,
		Company:  answer.CompanyName,
		JobTitle: answer.JobTitle,
		Welcome:  answer.WelcomeMessage,
		Privacy:  answer.PrivacyURL,
		Total:    len(answer.Questions),
		Agreed:   answer.ConsentedAt != "",
	}
	open, untimed, seconds := false, true, 0
	for _, question := range answer.Questions {
		if answered[question.ID] {
			view.Answered++
		} else {
			open = true
		}
		untimed = untimed && question.Untimed
		seconds += max(0, question.Timeout)
	}
	if !open {
		return "", false
	}
	count := "There are " + strconv.Itoa(view.Total) + " questions"
	if view.Total == 1 {
		count = "There is 1 question"
	}
	if untimed {
		view.Summary = count + ". Take the time you need: there is no time limit. Video answers need your camera and microphone."
	} else {
		minutes := max(1, int(math.Ceil(float64(seconds)/60)))
		unit := "minutes"
		if minutes == 1 {
			unit = "minute"
		}
		view.Summary = count + ", about " + strconv.Itoa(minutes) + " " + unit +
			" of answers in all. Each has a time limit, shown before you start it. Video answers need your camera and microphone."
	}
	if answer.Deadline != "" {
		deadline, err := types.ParseDateTime(answer.Deadline)
		if err != nil || deadline.IsZero() {
			return "", false
		}
		view.Deadline = deadline.Time().UTC().Format("January 2, 2006 at 3:04 PM") + " UTC"
	}
	var markup bytes.Buffer
	if err := interviewStartTemplate.Execute(&markup, view); err != nil {
		return "", false
	}
	return markup.String(), true
}
