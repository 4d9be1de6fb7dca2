package platform

import (
	"bytes"
	"testing"
)

func TestCSVStartsWithTheByteOrderMarkEndsLinesWithCRLFAndDisarmsFormulas(t *testing.T) {
	var out bytes.Buffer
	w, err := NewCSVWriter(&out)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRow("Name", "Note"); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRow("Zoë", `=HYPERLINK("http://x"), "quoted"`); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteRow("-1", "@SUM(A1)", "+1", "\tx", "two\nlines", ""); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "\xef\xbb\xbfName,Note\r\nZoë,\"'=HYPERLINK(\"\"http://x\"\"), \"\"quoted\"\"\"\r\n'-1,'@SUM(A1),'+1,'\tx,\"two\r\nlines\",\r\n"
	if out.String() != want {
		t.Errorf("got  %q\nwant %q", out.String(), want)
	}
}
