package takes

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// A recording made by ffmpeg, `seconds` long: "live", a WebM as a browser's MediaRecorder writes one (unknown sizes,
// no cues); "file", a WebM as files usually are (sizes, cues at the end); "mp4", as Safari records. VP8 (H.264 in the
// MP4) of noise, which does not compress, and a tone.
func recording(t *testing.T, kind string, seconds int) string {
	t.Helper()
	ext := map[string]string{"live": "webm", "file": "webm", "mp4": "mp4"}[kind]
	path := filepath.Join(t.TempDir(), "answer."+ext)
	args := []string{"-loglevel", "error", "-y",
		"-f", "lavfi", "-i", "nullsrc=s=160x120:r=15,geq=random(1)*255:128:128",
		"-f", "lavfi", "-i", "sine=frequency=300:sample_rate=48000",
		"-t", strconv.Itoa(seconds)}
	switch kind {
	case "mp4":
		args = append(args, "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac")
	default:
		args = append(args, "-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "600k", "-c:a", "libopus")
	}
	if kind == "live" {
		args = append(args, "-live", "1")
	}
	args = append(args, "-shortest", path)
	if out, err := exec.Command("ffmpeg", args...).CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	return path
}

// probeWith probes path with the excerpt thresholds set as given, restoring them after.
func probeWith(t *testing.T, path string, from, scan int64) float64 {
	t.Helper()
	oldFrom, oldScan := tailProbeFrom, tailScan
	tailProbeFrom, tailScan = from, scan
	defer func() { tailProbeFrom, tailScan = oldFrom, oldScan }()
	seconds, err := mediaSeconds(path, 20*time.Second)
	if err != nil || seconds == nil {
		t.Fatalf("mediaSeconds(%s): %v, %v", path, seconds, err)
	}
	return *seconds
}

// A WebM probed by its header and last cluster has the length the whole file has, written either way, and the
// excerpt is a small part of it: `go test -run TestMediaSeconds .`
func TestMediaSecondsOfALargeWebmFromItsLastCluster(t *testing.T) {
	for _, kind := range []string{"live", "file"} {
		path := recording(t, kind, 20)
		whole := ffprobeWhole(t, path)
		if whole < 19.5 || whole > 20.5 {
			t.Fatalf("%s: the whole file's probe says %.3f s, not about 20", kind, whole)
		}
		tailProbeFrom, tailScan = 0, 1<<20
		excerpt, ok := webmExcerpt(path)
		tailProbeFrom, tailScan = 8<<20, 8<<20
		if !ok {
			t.Fatalf("%s: no excerpt of a WebM", kind)
		}
		small, _ := os.Stat(excerpt)
		full, _ := os.Stat(path)
		if small.Size() >= full.Size()/4 {
			t.Errorf("%s: the excerpt is %d bytes of %d: not the header and last cluster", kind, small.Size(), full.Size())
		}
		// the excerpt alone says it (mediaSeconds would fall back to the whole file if it did not)
		got, err := probeLongest(excerpt, 20*time.Second)
		os.Remove(excerpt)
		if err != nil || got == nil {
			t.Fatalf("%s: the excerpt's probe: %v, %v", kind, got, err)
		}
		if math.Abs(*got-whole) > 0.001 {
			t.Errorf("%s: the excerpt's probe says %.3f s, the whole file's %.3f s", kind, *got, whole)
		}
		if got := probeWith(t, path, 0, 1<<20); math.Abs(got-whole) > 0.001 {
			t.Errorf("%s: mediaSeconds says %.3f s, the whole file's probe %.3f s", kind, got, whole)
		}
	}
}

// ffprobeWhole is ffprobe's length of the whole file.
func ffprobeWhole(t *testing.T, path string) float64 {
	t.Helper()
	seconds, err := probeLongest(path, 20*time.Second)
	if err != nil || seconds == nil {
		t.Fatalf("ffprobe of %s: %v, %v", path, seconds, err)
	}
	return *seconds
}

// A WebM's length read in Go is ffprobe's, within a video frame: Chromium's and Firefox ESR's own recordings, files
// shaped as MediaRecorder writes them (VP9 and Opus, clusters sized and unsized: tests/fixtures), ffmpeg's own (VP8
// and Opus, live and with cues), long and short.
func TestWebmSecondsIsFfprobes(t *testing.T) {
	paths := []string{"../../../tests/fixtures/answer.webm", "../../../tests/fixtures/mediarecorder-sized.webm", "../../../tests/fixtures/mediarecorder-unsized.webm",
		// real recordings: Chromium's and Firefox ESR's MediaRecorder (tests/fixtures/make-browser-recordings.mjs)
		"../../../tests/fixtures/chromium-recording.webm", "../../../tests/fixtures/firefox-recording.webm"}
	for _, kind := range []string{"live", "file"} {
		paths = append(paths, recording(t, kind, 3), recording(t, kind, 20))
	}
	for _, path := range paths {
		got, ok := webmSeconds(path)
		if !ok {
			t.Errorf("%s: not read", path)
			continue
		}
		// ffprobe gives the last video frame, when the file does not say how long it is, the length its frame rate
		// suggests; the Go reader gives what the file says: within a frame (66 ms at Chromium's 15 fps)
		if want := ffprobeWhole(t, path); math.Abs(got-want) > 0.1 {
			t.Errorf("%s: %.4f s, ffprobe says %.4f s", path, got, want)
		}
	}
}

// What the Go reader is not sure of it leaves to ffprobe: not a WebM, a cut-off file, a laced block, a block of a
// track the header does not have; and mediaSeconds still measures those that are media.
func TestWebmSecondsLeavesTheRestToFfprobe(t *testing.T) {
	mp4 := recording(t, "mp4", 3)
	if _, ok := webmSeconds(mp4); ok {
		t.Error("an MP4 was read as a WebM")
	}
	if got := probeWith(t, mp4, 8<<20, 8<<20); got < 2.5 || got > 3.5 {
		t.Errorf("the MP4 measures %.3f s, not about 3", got)
	}

	original, err := os.ReadFile("../../../tests/fixtures/mediarecorder-unsized.webm")
	if err != nil {
		t.Fatal(err)
	}
	write := func(b []byte) string {
		path := filepath.Join(t.TempDir(), "answer.webm")
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	if _, ok := webmSeconds(write(original[:len(original)-7])); ok {
		t.Error("a file cut off in its last block was read")
	}
	// the last cluster's last SimpleBlock: its flags byte (after the track number and the relative time) laced
	last := lastSimpleBlock(t, original)
	laced := append([]byte{}, original...)
	laced[last+3] |= 0x02
	if _, ok := webmSeconds(write(laced)); ok {
		t.Error("a laced block was read")
	}
	foreign := append([]byte{}, original...)
	foreign[last] = 0x89 // track 9
	if _, ok := webmSeconds(write(foreign)); ok {
		t.Error("a block of a track the header does not have was read")
	}
	if _, ok := webmSeconds(write(original)); !ok {
		t.Error("the fixture itself is not read")
	}
}

// lastSimpleBlock is where the body of the file's last SimpleBlock starts (its track number's first byte).
func lastSimpleBlock(t *testing.T, b []byte) int {
	t.Helper()
	last := lastCluster(b)
	_, body, _, _ := element(b, last)
	found := -1
	for i := body; i < len(b); {
		id, cbody, cend, ok := element(b, i)
		if !ok || cend < 0 {
			t.Fatalf("the fixture's last cluster does not read at %d", i)
		}
		if id == idSimpleBlock {
			found = cbody
		}
		i = cend
	}
	if found < 0 {
		t.Fatal("the fixture's last cluster has no SimpleBlock")
	}
	return found
}

// What is not a large WebM whose clusters can be found is probed whole: an MP4 (Safari), a WebM whose tail holds no
// cluster start (a search window too small for its last cluster), a file of no media at all.
func TestMediaSecondsProbesTheWholeFileOtherwise(t *testing.T) {
	mp4 := recording(t, "mp4", 6)
	if _, ok := webmExcerptWith(mp4, 0, 64<<10); ok {
		t.Error("an MP4 got a WebM excerpt")
	}
	if got := probeWith(t, mp4, 0, 64<<10); got < 5.5 || got > 6.5 {
		t.Errorf("the MP4's probe says %.3f s, not about 6", got)
	}

	webm := recording(t, "live", 6)
	if _, ok := webmExcerptWith(webm, 0, 16); ok {
		t.Error("a tail of 16 bytes held a cluster's start")
	}
	if got := probeWith(t, webm, 0, 16); got < 5.5 || got > 6.5 {
		t.Errorf("the WebM probed whole says %.3f s, not about 6", got)
	}

	junk := filepath.Join(t.TempDir(), "junk.webm")
	if err := os.WriteFile(junk, append([]byte{0x1A, 0x45, 0xDF, 0xA3}, make([]byte, 4096)...), 0o600); err != nil {
		t.Fatal(err)
	}
	oldFrom := tailProbeFrom
	tailProbeFrom = 0
	defer func() { tailProbeFrom = oldFrom }()
	if seconds, err := mediaSeconds(junk, 20*time.Second); err == nil && seconds != nil {
		t.Errorf("a file of no media has a length: %.3f", *seconds)
	}
}

func webmExcerptWith(path string, from, scan int64) (string, bool) {
	oldFrom, oldScan := tailProbeFrom, tailScan
	tailProbeFrom, tailScan = from, scan
	defer func() { tailProbeFrom, tailScan = oldFrom, oldScan }()
	excerpt, ok := webmExcerpt(path)
	if ok {
		os.Remove(excerpt)
	}
	return excerpt, ok
}

// A cluster's start is told from the same four bytes inside a frame by what follows them.
func TestClusterStarts(t *testing.T) {
	if v, w, unknown := vint([]byte{0x40, 0x02}, 0); v != 2 || w != 2 || unknown {
		t.Errorf("vint 0x4002: %d, %d, %v", v, w, unknown)
	}
	if _, w, unknown := vint([]byte{0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}, 0); w != 8 || !unknown {
		t.Errorf("the unknown size: width %d, unknown %v", w, unknown)
	}
	cluster := func(size []byte, rest ...byte) []byte {
		return append(append(append([]byte{}, clusterID...), size...), rest...)
	}
	timecode := []byte{timecodeID, 0x82, 0x01, 0x00}
	for _, c := range []struct {
		what string
		b    []byte
		last bool
		want bool
	}{
		{"a cluster of 4 bytes holding its timecode", cluster([]byte{0x84}, timecode...), true, true},
		{"a live cluster (unknown size)", cluster([]byte{0xFF}, timecode...), true, true},
		{"a last cluster longer than what follows", cluster([]byte{0x90}, timecode...), true, false},
		{"a first cluster longer than the head read", cluster([]byte{0x90}, timecode...), false, true},
		{"no timecode after the size", cluster([]byte{0x84}, 0xA3, 0x82, 0x01, 0x00), true, false},
		{"a timecode of 9 bytes", cluster([]byte{0x84}, timecodeID, 0x89, 0x01, 0x00), true, false},
		{"a zero byte where the size starts", cluster([]byte{0x00}, timecode...), true, false},
	} {
		if got := isClusterAt(c.b, 0, c.last); got != c.want {
			t.Errorf("%s: %v, want %v", c.what, got, c.want)
		}
	}
}
