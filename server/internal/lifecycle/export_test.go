package lifecycle

import (
	"strings"
	"testing"
)

// The export's README.txt explains every file the archive can hold (export.go): `go test -run TestExportReadme .`
func TestExportReadmeNamesEveryFile(t *testing.T) {
	for _, name := range []string{"candidate.json", "job.json", "answers.json", "videos/", "transcripts/", ".segments.json", "ratings.json", "comments.json", "decision.json", "messages.json"} {
		if !strings.Contains(exportReadme, name) {
			t.Errorf("README.txt does not explain %s", name)
		}
	}
	for _, word := range []string{"secret", "password"} {
		if strings.Contains(strings.ToLower(exportReadme), word) {
			t.Errorf("README.txt mentions %q", word)
		}
	}
}
