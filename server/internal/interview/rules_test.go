package interview

import (
	"encoding/json"
	"testing"

	"github.com/pocketbase/pocketbase/core"
)

func candidateRecord(extraTime string, extraTakes int) *core.Record {
	collection := core.NewBaseCollection("candidates")
	collection.Fields.Add(
		&core.TextField{Name: "extraTime"},
		&core.NumberField{Name: "extraTakes"},
		&core.BoolField{Name: "withdrawn"},
		&core.DateField{Name: "withdrawnAt"},
		&core.DateField{Name: "deadline"},
	)
	record := core.NewRecord(collection)
	record.Set("extraTime", extraTime)
	record.Set("extraTakes", extraTakes)
	return record
}

func videoKindRecord(takes, preparation int) *core.Record {
	collection := core.NewBaseCollection("video_questions")
	collection.Fields.Add(&core.NumberField{Name: "takes"}, &core.NumberField{Name: "preparation"})
	record := core.NewRecord(collection)
	record.Set("takes", takes)
	record.Set("preparation", preparation)
	return record
}

func TestTimesAndTakes(t *testing.T) {
	for _, c := range []struct {
		extraTime  string
		base, want int
	}{{"", 45, 45}, {"1.5", 45, 68}, {"2", 45, 90}, {"unlimited", 45, 45}, {"1.5", 0, 0}} {
		if got := EffectiveSeconds(c.base, candidateRecord(c.extraTime, 0)); got != c.want {
			t.Errorf("EffectiveSeconds(%d, %q) = %d, want %d", c.base, c.extraTime, got, c.want)
		}
	}
	if got := EffectivePreparation(nil, candidateRecord("2", 0)); got != 0 {
		t.Errorf("a text question's preparation = %d, want 0", got)
	}
	if got := EffectivePreparation(videoKindRecord(1, 15), candidateRecord("1.5", 0)); got != 23 {
		t.Errorf("preparation 15 s with 1.5 = %d, want 23", got)
	}
	if got := MaxTakes(nil, candidateRecord("", 3)); got != 1 {
		t.Errorf("a text question's takes = %d, want 1 whatever the extra takes", got)
	}
	if got := MaxTakes(videoKindRecord(0, 0), candidateRecord("", 2)); got != 3 {
		t.Errorf("takes 0 (at least 1) + 2 extra = %d, want 3", got)
	}
	if got := MaxTakes(videoKindRecord(2, 0), candidateRecord("", -1)); got != 2 {
		t.Errorf("negative extra takes count as none: %d, want 2", got)
	}
}

func TestClosedStateAndDeadlineRefusal(t *testing.T) {
	candidate := candidateRecord("", 0)
	candidate.Set("deadline", "2026-11-24 10:00:00.000Z")
	deadline := int64(1795514400000) // 2026-11-24 10:00:00 UTC
	if closed := closedState(candidate, nil, deadline-1); closed != nil {
		t.Fatalf("open a millisecond before the deadline, got %+v", closed)
	}
	if closed := closedState(candidate, nil, deadline); closed == nil || closed.Reason != "deadline" || closed.At != "2026-11-24 10:00:00.000Z" {
		t.Fatalf("closed at the deadline itself, got %+v", closed)
	}
	body, _ := json.Marshal(DeadlinePassedError(candidate))
	want := `{"data":{"interview":{"code":"deadline_passed","message":"This interview closed on 24 November 2026."}},"message":"This interview closed on 24 November 2026.","status":403}`
	if string(body) != want {
		t.Errorf("refusal JSON\n got %s\nwant %s", body, want)
	}
	candidate.Set("withdrawn", true)
	if closed := closedState(candidate, nil, deadline); closed == nil || closed.Reason != "withdrawn" {
		t.Errorf("withdrawn wins over the deadline, got %+v", closed)
	}
}

func TestVideoLength(t *testing.T) {
	question := core.NewRecord(func() *core.Collection {
		c := core.NewBaseCollection("questions")
		c.Fields.Add(&core.NumberField{Name: "timeout"})
		return c
	}())
	question.Set("timeout", 60)
	seconds := func(s float64) *float64 { return &s }
	if err := RequireVideoInTime(candidateRecord("", 0), question, seconds(63)); err != nil {
		t.Errorf("63 s of a 60 s question is within the tolerance: %v", err)
	}
	if err := RequireVideoInTime(candidateRecord("", 0), question, seconds(63.1)); err == nil {
		t.Error("63.1 s of a 60 s question is refused")
	}
	if err := RequireVideoInTime(candidateRecord("unlimited", 0), question, seconds(600)); err != nil {
		t.Errorf("unlimited time has no length limit: %v", err)
	}
	if err := RequireVideoInTime(candidateRecord("", 0), question, nil); err != nil {
		t.Errorf("an unreadable file is accepted: %v", err)
	}
}
