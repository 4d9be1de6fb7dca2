package candidates

import (
	"math"
	"testing"

	"github.com/dop251/goja"
)

// parseDateText reads a deadline cell as the JS engine's Date.parse did: the same value, or NaN, for each text.
func TestParseDateTextAsGoja(t *testing.T) {
	vm := goja.New()
	parse, ok := goja.AssertFunction(vm.Get("Date").ToObject(vm).Get("parse"))
	if !ok {
		t.Fatal("no Date.parse")
	}
	texts := []string{
		"", " ", "not a date", "2020-01-01", "2026-12-31T23:59:59.000Z", "2019-05-05T10:00:00Z", "2026-12-31T17:00",
		"2026-12-31T17:00:00+02:00", "2026-12-31T17:00:00+0200", "2026-12-31T17:00:00.123456Z", "2026-12", "2026",
		"+020000-01-01T00:00:00Z", "-000000-01-01", "-000001-01-01", "2026-13-01", "2026-00-10", "2026-02-31",
		"2026-12-31T24:00", "2026-12-31T24:01", "2026-12-31T12:60", "2026-12-31 17:00", "2026-12-31 17:00:00.5 +01:00",
		"12/31/2026", "31/12/2026", "12/31/26", "12/31/49", "12/31/50", "1/2/3", "Dec 31 2026", "31 Dec 2026",
		"December 31, 2026 5:00 pm", "Thu, 31 Dec 2026 17:00:00 GMT", "Thu Dec 31 2026 17:00:00 GMT+0100 (CET)",
		"Dec 31 2026 12:00 am", "Dec 31 2026 12:30 PM EST", "2026/12/31", "2026.12.31", "31.12.2026", "(x) 2026",
		"2026 (unclosed", "2026)", "Monday", "Monday 2026", "2026 Monday", "1 2 3 4", "99", "0", "-5", "+5",
		"Dec 2026", "Dec", "31 Dec", "17:00", "2026 17:00 -0130", "2026 17:00 +5", "2026 17:00 +123456",
		"2026 17:00 UTCx", "2026-12-31T17:00:00z", "2026-12-31t17:00", "１２/３１/２０２６", "2026\u00a012", "10000-01-01",
		"275760-09-13", "+275760-09-13T00:00:00.000Z", "+275760-09-13T00:00:00.001Z",
	}
	for _, text := range texts {
		want, err := parse(goja.Undefined(), vm.ToValue(text))
		if err != nil {
			t.Fatal(err)
		}
		wantMs := want.ToFloat()
		got, ok := parseDateText(text)
		if math.IsNaN(wantMs) {
			if ok {
				t.Errorf("%q: got %d, Date.parse gives NaN", text, got)
			}
			continue
		}
		if !ok || float64(got) != wantMs {
			t.Errorf("%q: got %d (ok %v), Date.parse gives %v", text, got, ok, int64(wantMs))
		}
	}
}

// Texts made of date-like pieces, many of them no date: parseDateText and Date.parse agree on every one.
func TestParseDateTextAsGojaOnMixedPieces(t *testing.T) {
	vm := goja.New()
	parse, _ := goja.AssertFunction(vm.Get("Date").ToObject(vm).Get("parse"))
	pieces := []string{"2026", "12", "31", "1", "-", "/", ".", ",", " ", ":", "T", "Z", "+", "01:30", "17:05", "pm", "AM",
		"Dec", "march", "GMT", "cest", "(", ")", "Mon", "x", "000", "99", "49", "123456789", "5", "0", ".5", "+0200"}
	seed := uint64(1)
	for i := 0; i < 50000; i++ {
		var b []byte
		seed = seed*6364136223846793005 + 1442695040888963407
		n := int(seed>>60)%7 + 1
		for j := 0; j < n; j++ {
			seed = seed*6364136223846793005 + 1442695040888963407
			b = append(b, pieces[int(seed>>33)%len(pieces)]...)
		}
		text := string(b)
		want, err := parse(goja.Undefined(), vm.ToValue(text))
		if err != nil {
			t.Fatal(err)
		}
		wantMs := want.ToFloat()
		got, ok := parseDateText(text)
		if math.IsNaN(wantMs) != !ok || (ok && float64(got) != wantMs) {
			t.Fatalf("%q: got %d (ok %v), Date.parse gives %v", text, got, ok, wantMs)
		}
	}
}
