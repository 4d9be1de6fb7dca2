package takes

import (
	"bytes"
	"encoding/binary"
	"io"
	"os"
)

// A WebM answer's length read in Go, without ffprobe (issue 20 point 1 of the upload: starting ffprobe took 50-150 ms
// of every video answer's submit on this machine, inside the transaction that stores it). ffprobe's figure
// (media_probe.go: the largest packet time + duration) within a video frame, from the file's header and its last
// cluster only:
//   - the header: the segment's timestamp scale, and each track's number, codec, codec delay and default frame
//     duration;
//   - the last cluster: its timecode and each block's time relative to it (less its track's codec delay, as
//     libavformat does), and each block's duration: its
//     BlockDuration, else its track's default duration, else (Opus, as browsers record it) what the packet's first
//     byte says, as libavcodec's Opus parser reads it. (A video frame of unknown duration, as Chromium writes them,
//     counts none; ffprobe gives it the length the stream's frame rate suggests: 66 ms at 15 fps.)
//
// Anything in them that is not as browsers and ffmpeg write a WebM (laced blocks, an element of unknown size inside a
// cluster, a cut-off element, no block at all) makes it say nothing (ok false), and ffprobe decides as before.

// EBML element IDs (with their length marker bits, as they are written).
const (
	idEBML            = 0x1A45DFA3
	idSegment         = 0x18538067
	idInfo            = 0x1549A966
	idTimestampScale  = 0x2AD7B1
	idTracks          = 0x1654AE6B
	idTrackEntry      = 0xAE
	idTrackNumber     = 0xD7
	idCodecID         = 0x86
	idDefaultDuration = 0x23E383
	idCodecDelay      = 0x56AA
	idCluster         = 0x1F43B675
	idTimecode        = 0xE7
	idSimpleBlock     = 0xA3
	idBlockGroup      = 0xA0
	idBlock           = 0xA1
	idBlockDuration   = 0x9B
)

// maxWebmNs: no time in an answer is this far (100 days, in ns).
const maxWebmNs = 100 * 24 * 3600 * 1_000_000_000

// Top-level elements: one of them ends a cluster of unknown size.
var segmentChildren = map[uint64]bool{
	idCluster: true, 0x1C53BB6B: true /* Cues */, 0x1254C367: true /* Tags */, 0x1043A770: true, /* Chapters */
	0x1941A469: true /* Attachments */, 0x114D9B74: true /* SeekHead */, idInfo: true, idTracks: true,
}

type webmTrack struct {
	opus            bool
	defaultDuration uint64 // ns, 0 when not given
	codecDelay      uint64 // ns (Opus's pre-skip): ffmpeg's packet times are the block's less this
}

// element is one EBML element's header at b[i:]: its ID, the start and end of its body (end -1: unknown size), and
// ok false when b holds no whole header there.
func element(b []byte, i int) (id uint64, body, end int, ok bool) {
	if i >= len(b) || b[i] == 0 {
		return 0, 0, 0, false
	}
	width := 1
	for mask := byte(0x80); b[i]&mask == 0; mask >>= 1 {
		width++
	}
	if width > 4 || i+width > len(b) {
		return 0, 0, 0, false
	}
	for _, c := range b[i : i+width] {
		id = id<<8 | uint64(c)
	}
	size, sizeWidth, unknown := vint(b, i+width)
	if sizeWidth == 0 {
		return 0, 0, 0, false
	}
	body = i + width + sizeWidth
	if unknown {
		return id, body, -1, true
	}
	if size > uint64(len(b)-body) {
		return id, body, body + int(min(size, uint64(len(b)))), false
	}
	return id, body, body + int(size), true
}

// eachChild visits the elements in b[from:to] in order (each read within b[:to]); false when one does not read
// whole or has an unknown size, or when visit returns false.
func eachChild(b []byte, from, to int, visit func(id uint64, body, end int) bool) bool {
	for i := from; i < to; {
		id, body, end, ok := element(b[:to], i)
		if !ok || end < 0 || !visit(id, body, end) {
			return false
		}
		i = end
	}
	return true
}

// uintOf reads an unsigned integer element's body (at most 8 bytes).
func uintOf(b []byte) (uint64, bool) {
	if len(b) > 8 {
		return 0, false
	}
	var v uint64
	for _, c := range b {
		v = v<<8 | uint64(c)
	}
	return v, true
}

// webmHeader reads the timestamp scale (ns per tick) and the tracks of a WebM from its start up to its first cluster.
func webmHeader(head []byte) (scale uint64, tracks map[uint64]webmTrack, ok bool) {
	id, _, end, ok := element(head, 0)
	if !ok || id != idEBML || end < 0 {
		return 0, nil, false
	}
	id, body, segmentEnd, ok := element(head, end)
	if id != idSegment || body == 0 {
		return 0, nil, false
	}
	if !ok || segmentEnd < 0 {
		segmentEnd = len(head) // the segment goes on past the header (or its size is unknown, as while recording)
	}
	scale = 1_000_000
	tracks = map[uint64]webmTrack{}
	for i := body; i < segmentEnd; {
		id, body, end, ok := element(head, i)
		if !ok || end < 0 {
			return 0, nil, false
		}
		read := true
		switch id {
		case idInfo:
			read = eachChild(head, body, end, func(id uint64, body, end int) bool {
				if id != idTimestampScale {
					return true
				}
				var ok bool
				scale, ok = uintOf(head[body:end])
				return ok && scale > 0
			})
		case idTracks:
			read = eachChild(head, body, end, func(id uint64, body, end int) bool {
				if id != idTrackEntry {
					return true
				}
				number, track, ok := webmTrackEntry(head[body:end])
				if ok {
					tracks[number] = track
				}
				return ok
			})
		}
		if !read {
			return 0, nil, false
		}
		i = end
	}
	return scale, tracks, len(tracks) > 0
}

func webmTrackEntry(b []byte) (number uint64, track webmTrack, ok bool) {
	read := eachChild(b, 0, len(b), func(id uint64, body, end int) bool {
		ok := true
		switch id {
		case idTrackNumber:
			number, ok = uintOf(b[body:end])
		case idCodecID:
			track.opus = string(b[body:end]) == "A_OPUS"
		case idDefaultDuration:
			track.defaultDuration, ok = uintOf(b[body:end])
		case idCodecDelay:
			track.codecDelay, ok = uintOf(b[body:end])
		}
		return ok
	})
	return number, track, read && number > 0
}

// opusPacketNs is an Opus packet's length from its first byte (RFC 6716 3.1: the configuration's frame size times
// the frame count code's frames); 0 when it cannot tell.
func opusPacketNs(packet []byte) uint64 {
	if len(packet) == 0 {
		return 0
	}
	toc := packet[0]
	config := toc >> 3
	var frame uint64 // in units of 2.5 ms
	switch {
	case config < 12: // SILK: 10, 20, 40, 60 ms
		frame = []uint64{4, 8, 16, 24}[config%4]
	case config < 16: // hybrid: 10, 20 ms
		frame = []uint64{4, 8}[config%2]
	default: // CELT: 2.5, 5, 10, 20 ms
		frame = []uint64{1, 2, 4, 8}[config%4]
	}
	frames := uint64(1)
	switch toc & 3 {
	case 1, 2:
		frames = 2
	case 3:
		if len(packet) < 2 {
			return 0
		}
		frames = uint64(packet[1] & 0x3F)
	}
	return frame * frames * 2_500_000
}

// webmBlockEnd is where a (Simple)Block at b ends in ns: the cluster's time plus its own, plus its duration
// (blockDuration in ticks when given); ok false for a laced block or one too short.
func webmBlockEnd(b []byte, cluster, scale, blockDuration uint64, tracks map[uint64]webmTrack) (int64, bool) {
	number, width, _ := vint(b, 0)
	if width == 0 || len(b) < width+3 {
		return 0, false
	}
	track, known := tracks[number]
	if !known || b[width+2]&0x06 != 0 { // lacing: several frames whose lengths this does not add up
		return 0, false
	}
	// times past 100 days are no answer's (and would overflow below): ffprobe decides
	if cluster > maxWebmNs/scale || blockDuration > maxWebmNs/scale || track.defaultDuration > maxWebmNs {
		return 0, false
	}
	relative := int64(int16(binary.BigEndian.Uint16(b[width : width+2])))
	// the codec delay in ticks, rounded as libavformat's matroska demuxer rounds it
	delay := int64((track.codecDelay + scale/2) / scale)
	// before 0 for the first packets of a track with a codec delay, as in ffmpeg
	end := (int64(cluster) + relative - delay) * int64(scale)
	switch {
	case blockDuration > 0:
		end += int64(blockDuration * scale)
	case track.defaultDuration > 0:
		end += int64(track.defaultDuration)
	case track.opus:
		end += int64(opusPacketNs(b[width+3:]))
	}
	return max(end, 0), true
}

// webmClusterEnd reads the cluster at b[0:] (the file's last, to the end of the file) and returns where its last
// block ends, in ns.
func webmClusterEnd(b []byte, scale uint64, tracks map[uint64]webmTrack) (uint64, bool) {
	id, body, end, ok := element(b, 0)
	if id != idCluster || body == 0 || (!ok && end >= 0) {
		return 0, false
	}
	if end < 0 {
		end = len(b)
	}
	var cluster uint64
	haveTimecode := false
	var latest int64
	blocks := 0
	for i := body; i < end; {
		id, cbody, cend, ok := element(b[:end], i)
		if ok && cend >= 0 && segmentChildren[id] {
			break // the end of a cluster of unknown size
		}
		if !ok || cend < 0 {
			return 0, false
		}
		switch id {
		case idTimecode:
			if cluster, ok = uintOf(b[cbody:cend]); !ok {
				return 0, false
			}
			haveTimecode = true
		case idSimpleBlock, idBlockGroup:
			if !haveTimecode {
				return 0, false
			}
			block, duration := b[cbody:cend], uint64(0)
			if id == idBlockGroup {
				block = nil
				read := eachChild(b, cbody, cend, func(id uint64, body, end int) bool {
					ok := true
					switch id {
					case idBlock:
						block = b[body:end]
					case idBlockDuration:
						duration, ok = uintOf(b[body:end])
					}
					return ok
				})
				if !read || block == nil {
					return 0, false
				}
			}
			blockEnd, ok := webmBlockEnd(block, cluster, scale, duration, tracks)
			if !ok {
				return 0, false
			}
			latest = max(latest, blockEnd)
			blocks++
		}
		i = cend
	}
	return uint64(latest), blocks > 0
}

// webmSeconds is a WebM file's length in seconds from its header and last cluster; ok false when it is not a WebM
// whose header and last cluster read as above.
func webmSeconds(path string) (float64, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return 0, false
	}
	head := make([]byte, min(headScan, info.Size()))
	if _, err := io.ReadFull(f, head); err != nil || !bytes.HasPrefix(head, ebmlMagic) {
		return 0, false
	}
	headerEnd := firstCluster(head)
	if headerEnd < 0 {
		return 0, false
	}
	scale, tracks, ok := webmHeader(head[:headerEnd])
	if !ok {
		return 0, false
	}
	tail, last := lastClusterOf(f, info.Size(), int64(headerEnd))
	if last < 0 {
		return 0, false
	}
	ns, ok := webmClusterEnd(tail[last:], scale, tracks)
	if !ok {
		return 0, false
	}
	return float64(ns) / 1e9, true
}
