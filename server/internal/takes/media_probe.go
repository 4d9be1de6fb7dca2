package takes

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/dop251/goja"
	"github.com/pocketbase/pocketbase/core"
)

// The decoded length of a video answer, for the answers route's time check (pb_hooks/lib/interview-rules.js
// mediaSeconds, as the JS global $screenroomMediaSeconds): the largest packet time + duration of any stream, by
// ffprobe. Listing every packet reads the whole file, inside the transaction that stores the answer: most of a
// second for a 10-minute answer (95 MB), and growing with it (issue 20 point 4: 'Stop Recording' → confirmed must
// not grow with the answer's length). A WebM's cluster and block times are absolute, so a large WebM is probed as
// its header followed by its last cluster only: a few MB whatever its length. Anything else (MP4, a small file, a
// WebM whose clusters cannot be told apart) is probed whole, as before. Before any of that, a WebM whose header and
// last cluster read as browsers write them is measured in Go, to the same figure (webm_length.go).

// tailProbeFrom: WebM files at least this big are probed by their head and last cluster (a variable for the tests).
var tailProbeFrom int64 = 8 << 20

// headScan and tailScan: how much of the file's start holds its header (a browser's is a few hundred bytes), and how
// much of its end is searched for the last cluster's start (a cluster is a few seconds: under 2 MB at the
// recorder's 1.26 Mbit/s cap, more after a pause).
const headScan = 64 << 10

var tailScan int64 = 8 << 20

var (
	ebmlMagic = []byte{0x1A, 0x45, 0xDF, 0xA3}
	clusterID = []byte{0x1F, 0x43, 0xB6, 0x75}
)

// timecodeID: the first child of every cluster a browser (and ffmpeg) writes; it tells a cluster's start from the
// same four bytes inside a frame.
const timecodeID = 0xE7

// RegisterMediaProbe gives the JS VM $screenroomMediaSeconds(path, timeoutSeconds): MediaSeconds.
func RegisterMediaProbe(vm *goja.Runtime, app core.App) {
	vm.Set("$screenroomMediaSeconds", func(path string, timeoutSeconds int) any {
		if seconds := MediaSeconds(app, path, time.Duration(timeoutSeconds)*time.Second); seconds != nil {
			return *seconds
		}
		return nil
	})
}

// MediaSeconds is the decoded length in seconds of the answer's file at path, within timeout; nil when it cannot
// be read or holds no packet (logged): the caller's length check then accepts.
func MediaSeconds(app core.App, path string, timeout time.Duration) *float64 {
	seconds, err := mediaSeconds(path, timeout)
	if err != nil {
		app.Logger().Warn("ffprobe could not read an answer's file", "path", path, "error", err.Error())
		return nil
	}
	if seconds == nil {
		app.Logger().Warn("ffprobe found no packets in an answer's file", "path", path)
	}
	return seconds
}

// mediaSeconds is the file's decoded length in seconds, nil when ffprobe finds no packet in it.
// timeout bounds the whole of it, the whole file's probe after an excerpt's included.
// A WebM whose header and last cluster read as browsers write them is measured in Go (webm_length.go).
func mediaSeconds(path string, timeout time.Duration) (*float64, error) {
	if seconds, ok := webmSeconds(path); ok {
		return &seconds, nil
	}
	deadline := time.Now().Add(timeout)
	if excerpt, ok := webmExcerpt(path); ok {
		defer os.Remove(excerpt)
		if seconds, err := probeLongest(excerpt, time.Until(deadline)); err == nil && seconds != nil {
			return seconds, nil
		}
		// what the excerpt could not say, the whole file does, in the time left
	}
	return probeLongest(path, time.Until(deadline))
}

// webmExcerpt writes a temp file of a large WebM's header and its last cluster (to the end of the file), and
// returns its path; false when the file is not one (small, not WebM, or no cluster found where one should be).
func webmExcerpt(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || info.Size() < tailProbeFrom {
		return "", false
	}
	head := make([]byte, headScan)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF {
		return "", false
	}
	head = head[:n]
	if !bytes.HasPrefix(head, ebmlMagic) {
		return "", false
	}
	headerEnd := firstCluster(head)
	if headerEnd < 0 {
		return "", false
	}
	tail, last := lastClusterOf(f, info.Size(), int64(headerEnd))
	if last < 0 {
		return "", false
	}
	out, err := os.CreateTemp("", "screenroom-probe-*.webm")
	if err != nil {
		return "", false
	}
	_, werr := out.Write(head[:headerEnd])
	if werr == nil {
		_, werr = out.Write(tail[last:])
	}
	if cerr := out.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(out.Name())
		return "", false
	}
	return out.Name(), true
}

// lastClusterOf reads the file's end, an eighth of tailScan first (a cluster at the recorder's cap is under 1 MB)
// and all of it only when that holds no cluster start: many answers stored at once each hold a small buffer. It
// returns what it read and where the last cluster starts in it, -1 when none does after `from`.
func lastClusterOf(f *os.File, size, from int64) ([]byte, int) {
	for _, scan := range []int64{max(tailScan/8, 1), tailScan} {
		tailFrom := max(size-scan, from)
		tail := make([]byte, size-tailFrom)
		if _, err := f.ReadAt(tail, tailFrom); err != nil {
			return nil, -1
		}
		if last := lastCluster(tail); last >= 0 {
			return tail, last
		}
		if tailFrom == from {
			break
		}
	}
	return nil, -1
}

// vint reads the EBML variable-length integer at b[i:]: its value, its width in bytes, and whether it is the
// "unknown size" of a live recording (every value bit set); width 0 when there is none.
func vint(b []byte, i int) (value uint64, width int, unknown bool) {
	if i >= len(b) || b[i] == 0 {
		return 0, 0, false
	}
	width = 1
	for mask := byte(0x80); b[i]&mask == 0; mask >>= 1 {
		width++
	}
	if i+width > len(b) {
		return 0, 0, false
	}
	value = uint64(b[i]) & (0xFF >> width)
	for _, c := range b[i+1 : i+width] {
		value = value<<8 | uint64(c)
	}
	return value, width, value == 1<<(7*width)-1
}

// isClusterAt: a cluster's ID at i, then its size (with `last`: a live recording's unknown size, or one that ends
// within b, as the file's last cluster does), then a Timecode element of at most 8 bytes: the same four bytes inside
// a frame almost never pass all three.
func isClusterAt(b []byte, i int, last bool) bool {
	if i+5 > len(b) || !bytes.Equal(b[i:i+4], clusterID) {
		return false
	}
	size, width, unknown := vint(b, i+4)
	if width == 0 {
		return false
	}
	body := i + 4 + width
	if last && !unknown && uint64(len(b)-body) < size {
		return false
	}
	if body >= len(b) || b[body] != timecodeID {
		return false
	}
	timecodeSize, timecodeWidth, _ := vint(b, body+1)
	return timecodeWidth > 0 && timecodeSize >= 1 && timecodeSize <= 8
}

func firstCluster(b []byte) int {
	for from := 0; ; {
		i := bytes.Index(b[from:], clusterID)
		if i < 0 {
			return -1
		}
		if isClusterAt(b, from+i, false) {
			return from + i
		}
		from += i + 1
	}
}

func lastCluster(b []byte) int {
	for end := len(b); ; {
		i := bytes.LastIndex(b[:end], clusterID)
		if i < 0 {
			return -1
		}
		if isClusterAt(b, i, true) {
			return i
		}
		end = i + len(clusterID) - 1
	}
}

// probeLongest lists the file's packets with ffprobe (given up on after timeout) and returns the largest
// pts + duration, nil when there is none.
func probeLongest(path string, timeout time.Duration) (*float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ffprobe", "-v", "error", "-show_entries", "packet=pts_time,duration_time", "-of", "csv=p=0", path).Output()
	if err != nil {
		return nil, err
	}
	var longest *float64
	for _, line := range strings.Split(string(out), "\n") {
		fields := strings.Split(strings.TrimSpace(line), ",")
		start, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			continue
		}
		end := start
		if len(fields) > 1 {
			if length, err := strconv.ParseFloat(fields[1], 64); err == nil {
				end += length
			}
		}
		if longest == nil || end > *longest {
			longest = &end
		}
	}
	return longest, nil
}
