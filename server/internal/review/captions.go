package review

// Captions and transcript downloads of a video answer: a WebVTT file made from the media worker's timed segments, and
// the transcript as plain text, each served with the video's own access rules.
//
//   - GET /api/screenroom/video-answers/{id}/captions.vtt and /transcript.txt: whoever may fetch the answer's video
//     file (the video_answers view rule in the protected-file context: the managers of the candidate's company; not
//     the candidate, whose clause excludes files), signed in by the Authorization header or, as PocketBase's protected
//     files are, by a file token in `?token=` (a link or a <track> sends no header). An unverified account reads
//     nothing. Anyone else, and an unknown id, gets the same 404.
//   - GET /api/screenroom/shared/{token}/videos/{videoAnswerId}/captions.vtt and /transcript.txt: a live share link's
//     holder, for its candidate's answers only, refused as the link's page and video are (404, or 410 once revoked
//     or expired).
//
// With `?download=1` the file comes as an attachment named after the question. An answer without a transcript
// (pending, failed, a language the engine does not know) or without timed segments has no captions: 404 with
// noCaptions; a transcript that found no speech has no text either. Nothing is made up: every cue is a stored segment,
// in its own words.

import (
	"fmt"
	"math"
	"mime"
	"net/http"
	"regexp"
	"sort"
	"strings"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
)

const (
	noCaptions   = "This answer has no captions."
	noTranscript = "This answer has no transcript."
)

func registerCaptions(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/video-answers/{id}/captions.vtt", managerTranscriptRoute(captionsFile))
		se.Router.GET("/api/screenroom/video-answers/{id}/transcript.txt", managerTranscriptRoute(transcriptFile))
		se.Router.GET("/api/screenroom/shared/{token}/videos/{videoAnswerId}/captions.vtt", sharedTranscriptRoute(captionsFile))
		se.Router.GET("/api/screenroom/shared/{token}/videos/{videoAnswerId}/transcript.txt", sharedTranscriptRoute(transcriptFile))
		return se.Next()
	})
}

// transcriptFormat is one of the two files a video answer's transcript is served as.
type transcriptFormat struct {
	contentType string
	extension   string
	missing     string
	// render is the file's body, or false when the answer has none in this format
	render func(video *core.Record) (string, bool)
}

var (
	captionsFile   = transcriptFormat{"text/vtt; charset=utf-8", "vtt", noCaptions, webVTT}
	transcriptFile = transcriptFormat{"text/plain; charset=utf-8", "txt", noTranscript, transcriptText}
)

func managerTranscriptRoute(format transcriptFormat) func(*core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		e.Response.Header().Set("Cache-Control", "no-store")
		video, answer, ok := viewableVideoAnswer(e)
		if !ok {
			return e.NotFoundError(resourceNotFound, nil)
		}
		return serveTranscript(e, format, video, answer)
	}
}

func sharedTranscriptRoute(format transcriptFormat) func(*core.RequestEvent) error {
	return func(e *core.RequestEvent) error {
		// a revoked link must not live on in a cache
		e.Response.Header().Set("Cache-Control", "no-store")
		link, err := linkOfToken(e.App, e.Request.PathValue("token"))
		if err != nil {
			return err
		}
		video, answer := linkVideoAnswer(e.App, link, e.Request.PathValue("videoAnswerId"))
		if video == nil {
			return e.NotFoundError(resourceNotFound, nil)
		}
		return serveTranscript(e, format, video, answer)
	}
}

// linkVideoAnswer is the video answer with that id and its answer when it is one of the link's candidate's answers,
// else nils: what the link's video, captions and transcript routes may reach.
func linkVideoAnswer(app core.App, link *core.Record, videoAnswerID string) (video, answer *core.Record) {
	video = platform.FindByIdOrNil(app, "video_answers", videoAnswerID)
	if video == nil {
		return nil, nil
	}
	answer = platform.FindByIdOrNil(app, "answers", video.GetString("answer"))
	if answer == nil || answer.GetString("candidate") != link.GetString("candidate") {
		return nil, nil
	}
	return video, answer
}

// viewableVideoAnswer is the route's video answer and its answer when the request may fetch the answer's video file:
// the collection's view rule as PocketBase applies it to a protected file, for the account of the Authorization
// header or else of the `token` query parameter (a file token), which must be verified (decisions.md: an unverified
// account acts on nothing). ok false for anyone else and for an unknown id alike.
func viewableVideoAnswer(e *core.RequestEvent) (video, answer *core.Record, ok bool) {
	info, err := e.RequestInfo()
	if err != nil {
		return nil, nil, false
	}
	auth := info.Auth
	if auth == nil {
		if token := e.Request.URL.Query().Get("token"); token != "" {
			auth, _ = e.App.FindAuthRecordByToken(token, core.TokenTypeFile)
		}
	}
	if auth == nil || (!auth.IsSuperuser() && !auth.Verified()) {
		return nil, nil, false
	}
	video = platform.FindByIdOrNil(e.App, "video_answers", e.Request.PathValue("id"))
	if video == nil {
		return nil, nil, false
	}
	fileInfo := *info
	fileInfo.Auth = auth
	fileInfo.Context = core.RequestInfoContextProtectedFile
	if allowed, _ := e.App.CanAccessRecord(video, &fileInfo, video.Collection().ViewRule); !allowed {
		return nil, nil, false
	}
	answer = platform.FindByIdOrNil(e.App, "answers", video.GetString("answer"))
	if answer == nil {
		return nil, nil, false
	}
	return video, answer, true
}

func serveTranscript(e *core.RequestEvent, format transcriptFormat, video, answer *core.Record) error {
	body, ok := format.render(video)
	if !ok {
		return e.NotFoundError(format.missing, nil)
	}
	header := e.Response.Header()
	header.Set("Content-Type", format.contentType)
	header.Set("X-Content-Type-Options", "nosniff")
	if e.Request.URL.Query().Get("download") == "1" {
		name := downloadName(answer.GetString("questionTitle"), format.extension)
		header.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	}
	return e.String(http.StatusOK, body)
}

var unsafeInFileName = regexp.MustCompile(`[^\p{L}\p{N} .,'()_-]+`)

// downloadName is "<question title> transcript.<ext>", reduced to characters every file system takes.
func downloadName(questionTitle, extension string) string {
	title := strings.Join(strings.Fields(unsafeInFileName.ReplaceAllString(questionTitle, " ")), " ")
	title = strings.Trim(title, ". ")
	if runes := []rune(title); len(runes) > 80 {
		title = strings.TrimSpace(string(runes[:80]))
	}
	if title == "" {
		return "transcript." + extension
	}
	return title + " transcript." + extension
}

// captionCues are the answer's timed segments as captions: only from a finished transcript ("done"), in order of
// start, without empty or unreadable ones; nil when there is none to show.
func captionCues(video *core.Record) []sharedSegment {
	if video.GetString("transcriptStatus") != "done" {
		return nil
	}
	var cues []sharedSegment
	for _, segment := range transcriptSegments(video) {
		text := strings.Join(strings.Fields(segment.Text), " ")
		if text == "" || !validSeconds(segment.Start) || !validSeconds(segment.End) {
			continue
		}
		cues = append(cues, sharedSegment{Start: segment.Start, End: segment.End, Text: text})
	}
	// the worker stores them in order; a stable sort keeps any equal starts as stored
	sort.SliceStable(cues, func(i, j int) bool { return cues[i].Start < cues[j].Start })
	return cues
}

func validSeconds(value float64) bool {
	return !math.IsNaN(value) && !math.IsInf(value, 0) && value >= 0
}

// hasCaptions reports whether webVTT has cues for the answer: what the pages ask before they show a track.
func hasCaptions(video *core.Record) bool {
	return len(captionCues(video)) > 0
}

// webVTT is the answer's captions as a WebVTT file, one cue per segment; false without any.
func webVTT(video *core.Record) (string, bool) {
	cues := captionCues(video)
	if len(cues) == 0 {
		return "", false
	}
	var out strings.Builder
	out.WriteString("WEBVTT\n")
	for i, cue := range cues {
		end := cue.End
		// a cue must end after it starts: a segment without length shows for a second, or until the next one starts
		if end <= cue.Start {
			end = cue.Start + 1
			if i+1 < len(cues) && cues[i+1].Start > cue.Start && cues[i+1].Start < end {
				end = cues[i+1].Start
			}
		}
		fmt.Fprintf(&out, "\n%d\n%s --> %s\n%s\n", i+1, vttTime(cue.Start), vttTime(end), vttText(cue.Text))
	}
	return out.String(), true
}

// vttTime is hh:mm:ss.ttt.
func vttTime(seconds float64) string {
	ms := int64(math.Round(seconds * 1000))
	return fmt.Sprintf("%02d:%02d:%02d.%03d", ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}

// vttText escapes what WebVTT reads as markup, so a transcript's words are shown as said ("-->" included).
var vttEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func vttText(text string) string {
	return vttEscaper.Replace(text)
}

// transcriptText is the answer's transcript as plain text (the worker's text, else its segments' words); false when
// the transcript is not finished or found no speech.
func transcriptText(video *core.Record) (string, bool) {
	if video.GetString("transcriptStatus") != "done" {
		return "", false
	}
	text := strings.TrimSpace(video.GetString("transcript"))
	if text == "" {
		words := make([]string, 0)
		for _, cue := range captionCues(video) {
			words = append(words, cue.Text)
		}
		text = strings.Join(words, " ")
	}
	if text == "" {
		return "", false
	}
	return text + "\n", true
}
