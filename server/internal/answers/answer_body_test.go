package answers

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

func answerRequest(t *testing.T, fileBytes int) *http.Request {
	t.Helper()
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	if err := form.WriteField("question", "q1"); err != nil {
		t.Fatal(err)
	}
	part, err := form.CreateFormFile("file", "answer.webm")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := part.Write(bytes.Repeat([]byte{7}, fileBytes)); err != nil {
		t.Fatal(err)
	}
	if err := form.Close(); err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest(http.MethodPost, "/api/screenroom/answers", &body)
	r.Header.Set("Content-Type", form.FormDataContentType())
	return r
}

// onDisk opens the form's file as a handler would and tells whether it reads from a temporary file.
func onDisk(t *testing.T, r *http.Request) bool {
	t.Helper()
	headers := r.MultipartForm.File["file"]
	if len(headers) != 1 {
		t.Fatalf("the form holds %d files named file", len(headers))
	}
	f, err := headers[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, isFile := f.(*os.File)
	return isFile
}

func TestAnswerFormKeepsALargeFileOnDisk(t *testing.T) {
	r := answerRequest(t, 3<<20)
	defer r.Body.Close()
	if err := parseAnswerForm(r); err != nil {
		t.Fatal(err)
	}
	defer r.MultipartForm.RemoveAll()
	if !onDisk(t, r) {
		t.Fatal("a 3 MB answer was held in memory")
	}
	if got := r.FormValue("question"); got != "q1" {
		t.Fatalf("question = %q", got)
	}
}

func TestAnswerFormKeepsASmallFileInMemory(t *testing.T) {
	r := answerRequest(t, 10<<10)
	if err := parseAnswerForm(r); err != nil {
		t.Fatal(err)
	}
	if onDisk(t, r) {
		t.Fatal("a 10 KB answer went to a temporary file")
	}
}

func TestAnswerFormLeavesJSONToRequestInfo(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/api/screenroom/answers", bytes.NewBufferString(`{"staged":true}`))
	r.Header.Set("Content-Type", "application/json")
	if err := parseAnswerForm(r); err != nil {
		t.Fatal(err)
	}
	if r.MultipartForm != nil {
		t.Fatal("a JSON body was parsed as a form")
	}
	rest, _ := io.ReadAll(r.Body)
	if string(rest) != `{"staged":true}` {
		t.Fatalf("the JSON body was read: %q left", rest)
	}
}

func TestAnswerBodyIsReadOnce(t *testing.T) {
	own := io.NopCloser(bytes.NewReader(nil))
	e := &core.RequestEvent{}
	e.Request = httptest.NewRequest(http.MethodPost, "/api/screenroom/answers", nil)
	e.Request.Body = &router.RereadableReadCloser{ReadCloser: own}
	if err := answerBodyReadOnce().Func(e); err != nil {
		t.Fatal(err)
	}
	if e.Request.Body != own {
		t.Fatalf("the route reads a %T, not the request's own body", e.Request.Body)
	}
}
