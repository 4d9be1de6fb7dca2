package takes

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestListTakePartsByOffset(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, size int) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("1000", 7)
	write("0", 1000)
	write("200", 3) // a part after a gap: listed, the caller decides
	write("take", 1207)
	write(".joined", 0)
	write(".part-abc", 5)
	write("010", 2) // not a name a part is given
	write("99999999999999999999", 1)
	if err := os.Mkdir(filepath.Join(dir, "300"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := listTakeParts(dir)
	want := []Part{{Offset: 0, Size: 1000}, {Offset: 200, Size: 3}, {Offset: 1000, Size: 7}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("listTakeParts = %v, want %v", got, want)
	}
	if parts := listTakeParts(filepath.Join(dir, "gone")); len(parts) != 0 {
		t.Fatalf("a missing dir lists %v, want none", parts)
	}
}
