package takes

import (
	"screenroom/server/internal/platform"

	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, path string, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func openRoot(t *testing.T, dir string) *os.Root {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root
}

func TestMoveTakeCutsBytesAfterAGap(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, dataName), "0123456789")
	root := openRoot(t, dir)
	moved, err := moveTake(nil, root, "abcdefghijklmno", ".submit-x", 6, "answer.webm")
	if err != nil || !moved {
		t.Fatalf("moveTake = %v, %v; want true", moved, err)
	}
	got, err := os.ReadFile(filepath.Join(dir, ".submit-x", "answer.webm"))
	if err != nil || string(got) != "012345" {
		t.Fatalf("the moved take holds %q (%v), want %q", got, err, "012345")
	}
	if exists(root, dataName) {
		t.Fatal("the take's file is still in its dir after the move")
	}
	if moved, err := moveTake(nil, root, "abcdefghijklmno", ".submit-y", 6, "answer.webm"); err != nil || !moved {
		// the cut-off submit's file is put back first (a server stopped during a submit), then moved again
		t.Fatalf("a second move after a cut-off submit = %v, %v; want true", moved, err)
	}
}

func TestMoveTakeRefusesATakeShorterThanItsSize(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, dataName), "0123")
	root := openRoot(t, dir)
	moved, err := moveTake(nil, root, "abcdefghijklmno", ".submit-x", 6, "answer.webm")
	if err != nil || moved {
		t.Fatalf("moveTake = %v, %v; want false", moved, err)
	}
	if !exists(root, dataName) {
		t.Fatal("a refused move moved the take's file")
	}
}

func TestCopyPartsJoinsPartFilesFromZero(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "0"), "abc")
	writeFile(t, filepath.Join(dir, "3"), "defg")
	writeFile(t, filepath.Join(dir, "20"), "after a gap")
	root := openRoot(t, dir)
	complete, err := copyParts(root, ".submit-x", 7, "answer.mp4")
	if err != nil || !complete {
		t.Fatalf("copyParts = %v, %v; want true", complete, err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, ".submit-x", "answer.mp4"))
	if string(got) != "abcdefg" {
		t.Fatalf("joined %q, want abcdefg", got)
	}
	complete, err = copyParts(root, ".submit-y", 8, "answer.mp4")
	if err != nil || complete {
		t.Fatalf("copyParts of another size = %v, %v; want false", complete, err)
	}
	if exists(root, ".submit-y") {
		t.Fatal("an incomplete join left its dir")
	}
}

func TestWholeNumber(t *testing.T) {
	for _, c := range []struct {
		value any
		want  int64
		ok    bool
	}{
		{"0", 0, true}, {"123", 123, true}, {"", 0, false}, {"-1", 0, false}, {"1.5", 0, false},
		{strings.Repeat("9", 16), 0, false}, {float64(42), 42, true}, {1.5, 0, false}, {float64(-1), 0, false},
		{nil, 0, false}, {true, 0, false},
	} {
		got, ok := wholeNumber(c.value)
		if got != c.want || ok != c.ok {
			t.Errorf("wholeNumber(%#v) = %d, %v; want %d, %v", c.value, got, ok, c.want, c.ok)
		}
	}
}

func TestJSConversionsOfAClaimBody(t *testing.T) {
	if got := platform.JSText(nil); got != "" {
		t.Errorf("String(undefined || \"\") = %q", got)
	}
	if got := platform.JSText(float64(7)); got != "7" {
		t.Errorf("String(7 || \"\") = %q", got)
	}
	if got := jsNumberOr(nil, 600); got != 600 {
		t.Errorf("Number(undefined) || 600 = %v", got)
	}
	if got := jsNumberOr("30", 600); got != 30 {
		t.Errorf("Number(\"30\") || 600 = %v", got)
	}
	if got := jsNumberOr(float64(0), 3); got != 3 {
		t.Errorf("Number(0) || 3 = %v", got)
	}
	if got := jsNumberOr("x", 3); got != 3 {
		t.Errorf("Number(\"x\") || 3 = %v", got)
	}
}
