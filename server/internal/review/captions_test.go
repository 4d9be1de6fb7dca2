package review

import (
	"testing"

	"github.com/pocketbase/pocketbase/core"
)

func videoAnswer(status, transcript, segments string) *core.Record {
	collection := core.NewBaseCollection("video_answers")
	collection.Fields.Add(
		&core.TextField{Name: "transcriptStatus"},
		&core.TextField{Name: "transcript"},
		&core.JSONField{Name: "transcriptSegments"},
	)
	record := core.NewRecord(collection)
	record.Set("transcriptStatus", status)
	record.Set("transcript", transcript)
	if segments != "" {
		record.Set("transcriptSegments", segments)
	}
	return record
}

func TestWebVTTFromSegments(t *testing.T) {
	video := videoAnswer("done", "Hello there. <b>Bold</b> & done --> next",
		`[{"start":3725.5,"end":3727.25,"text":"  <b>Bold</b> &\n\n done --> next "},{"start":0,"end":1.2,"text":"Hello there."},{"start":2,"end":2,"text":"Short"},{"start":2.4,"end":3,"text":"   "}]`)
	got, ok := webVTT(video)
	if !ok {
		t.Fatal("a finished transcript with segments has captions")
	}
	want := "WEBVTT\n" +
		"\n1\n00:00:00.000 --> 00:00:01.200\nHello there.\n" +
		"\n2\n00:00:02.000 --> 00:00:03.000\nShort\n" +
		"\n3\n01:02:05.500 --> 01:02:07.250\n&lt;b&gt;Bold&lt;/b&gt; &amp; done --&gt; next\n"
	if got != want {
		t.Errorf("webVTT =\n%q\nwant\n%q", got, want)
	}
}

func TestNoCaptionsWithoutTimedTranscript(t *testing.T) {
	segments := `[{"start":0,"end":1,"text":"Words"}]`
	for _, c := range []struct {
		name                 string
		video                *core.Record
		captions, transcript bool
	}{
		{"done with segments", videoAnswer("done", "Words", segments), true, true},
		{"pending", videoAnswer("pending", "", ""), false, false},
		{"failed, with words left from before", videoAnswer("failed", "Words", segments), false, false},
		{"language unsupported", videoAnswer("language_unsupported", "", ""), false, false},
		{"done without times: text only", videoAnswer("done", "Words", ""), false, true},
		{"done, no speech", videoAnswer("done", "", "[]"), false, false},
		{"done, segments without words", videoAnswer("done", "", `[{"start":0,"end":1,"text":" "}]`), false, false},
		{"done, unreadable segments", videoAnswer("done", "", `[{"start":"0","end":1,"text":"Words"}]`), false, false},
	} {
		if _, ok := webVTT(c.video); ok != c.captions {
			t.Errorf("%s: captions %v, want %v", c.name, ok, c.captions)
		}
		if hasCaptions(c.video) != c.captions {
			t.Errorf("%s: hasCaptions %v, want %v", c.name, !c.captions, c.captions)
		}
		if _, ok := transcriptText(c.video); ok != c.transcript {
			t.Errorf("%s: transcript %v, want %v", c.name, ok, c.transcript)
		}
	}
}

func TestTranscriptText(t *testing.T) {
	if got, _ := transcriptText(videoAnswer("done", " Hello there. ", `[{"start":0,"end":1,"text":"Other"}]`)); got != "Hello there.\n" {
		t.Errorf("the worker's text first: %q", got)
	}
	if got, _ := transcriptText(videoAnswer("done", "", `[{"start":0,"end":1,"text":"One"},{"start":1,"end":2,"text":"two."}]`)); got != "One two.\n" {
		t.Errorf("else the segments' words: %q", got)
	}
}

func TestDownloadName(t *testing.T) {
	for title, want := range map[string]string{
		"Introduce yourself":     "Introduce yourself transcript.vtt",
		"Why us? / Warum wir?":   "Why us Warum wir transcript.vtt",
		"Zoë's \"résumé\"\r\n..": "Zoë's résumé transcript.vtt",
		"../../etc/passwd":       "etc passwd transcript.vtt",
		"":                       "transcript.vtt",
		"???":                    "transcript.vtt",
	} {
		if got := downloadName(title, "vtt"); got != want {
			t.Errorf("downloadName(%q) = %q, want %q", title, got, want)
		}
	}
}
