package answers

import (
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// A whole-file answer's bytes wait on disk, not in memory. PocketBase's router keeps a copy of every request body (to
// read it again: router.RereadableReadCloser) and its form parsing keeps each uploaded file, both up to 16 MB in
// memory (router.DefaultMaxMemory): a 14 MB answer lived twice in the heap, and fifty sent at once took the server to
// 2.9 GB of resident memory (GOGC=200 lets the heap grow to three times what is live). Here the body is read once,
// by the form parsing, which keeps up to answerBodyMemory of a file in memory and the rest in a temporary file
// (os.TempDir) that Go's server removes when the request ends.
const answerBodyMemory = 256 << 10

// answerBodyReadOnce hands the route the request's own body in place of the router's copying reader: the route reads
// it once (RequestInfo keeps what it parsed). It runs before the body limit, which wraps the body in a reader of its
// own: until then the body is still the router's.
func answerBodyReadOnce() *hook.Handler[*core.RequestEvent] {
	return &hook.Handler[*core.RequestEvent]{
		Id:       "screenroomAnswerBodyReadOnce",
		Priority: apis.DefaultBodyLimitMiddlewarePriority - 1,
		Func: func(e *core.RequestEvent) error {
			if body, ok := e.Request.Body.(*router.RereadableReadCloser); ok {
				e.Request.Body = body.ReadCloser
			}
			return e.Next()
		},
	}
}

// parseAnswerForm parses a multipart answer with its file on disk past answerBodyMemory, before RequestInfo would
// parse it with PocketBase's 16 MB (a parsed form is not parsed again); any other body is left to RequestInfo.
func parseAnswerForm(r *http.Request) error {
	if r.MultipartForm != nil || !isMultipart(r) {
		return nil
	}
	return r.ParseMultipartForm(answerBodyMemory)
}

func isMultipart(r *http.Request) bool {
	return strings.HasPrefix(strings.ToLower(r.Header.Get("Content-Type")), "multipart/form-data")
}
