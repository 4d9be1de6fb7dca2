// Package staging is the layout of the staging folder where a video take's parts wait for their answer: one folder
// a take under {pb_data}/screenroom_takes/, its parts named by their decimal byte offset. Both the takes package
// (which writes, joins and removes them) and the interview read (which offers a kept take again) read it here, so
// the layout and what counts as a take's bytes are written once.
package staging

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/pocketbase/pocketbase/core"
)

// FolderName is the staging folder's name inside the data dir.
const FolderName = "screenroom_takes"

// Root is the staging folder.
func Root(app core.App) string {
	return filepath.Join(app.DataDir(), FolderName)
}

// Dir is the folder of the take takeID; takeID must be a valid take id (the caller checks it: an empty one would name
// the whole staging folder).
func Dir(app core.App, takeID string) string {
	return filepath.Join(Root(app), takeID)
}

// Part is one part of a staged take: its byte offset in the take and its size.
type Part struct {
	Offset int64 `json:"offset"`
	Size   int64 `json:"size"`
}

// ListParts lists the parts of the take staged in dir (the files named by a decimal byte offset, without leading
// zeros), by offset; none when dir cannot be read.
func ListParts(dir string) []Part {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	parts := make([]Part, 0, len(entries))
	for _, entry := range entries {
		name := entry.Name()
		if entry.IsDir() || !IsPartName(name) {
			continue
		}
		offset, err := strconv.ParseInt(name, 10, 64)
		if err != nil {
			continue
		}
		info, err := entry.Info()
		if err != nil {
			continue // removed since it was listed
		}
		parts = append(parts, Part{offset, info.Size()})
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].Offset < parts[j].Offset })
	return parts
}

// IsPartName: "0", or decimal digits not starting with 0.
func IsPartName(name string) bool {
	if name == "" || len(name) > 1 && name[0] == '0' {
		return false
	}
	for _, c := range name {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Take is what the candidate's device needs to offer a take again (after a reload, a crash, or on another device).
// Bytes counts the parts contiguous from offset 0 (a take cut off mid-recording may have a later part without the
// one before it); Parts are those parts.
type Take struct {
	ID         string `json:"id"`
	Bytes      int64  `json:"bytes"`
	Parts      []Part `json:"parts"`
	RecordedMs int    `json:"recordedMs"`
	Finished   bool   `json:"finished"`
	SavedAt    string `json:"savedAt"`
}

// Describe describes the take of row (a staged_takes record), nil when the server has no bytes of it from 0.
func Describe(app core.App, row *core.Record) *Take {
	takeID := row.GetString("take")
	if takeID == "" {
		return nil
	}
	parts := []Part{}
	var bytes int64
	for _, part := range ListParts(Dir(app, takeID)) {
		if part.Offset != bytes {
			break
		}
		parts = append(parts, part)
		bytes += part.Size
	}
	if bytes == 0 {
		return nil
	}
	return &Take{
		ID:         takeID,
		Bytes:      bytes,
		Parts:      parts,
		RecordedMs: row.GetInt("recordedMs"),
		Finished:   row.GetBool("finished"),
		SavedAt:    row.GetString("updated"),
	}
}
