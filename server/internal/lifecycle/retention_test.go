package lifecycle

import (
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/tools/cron"
)

func at(t *testing.T, text string) time.Time {
	t.Helper()
	parsed, err := time.Parse(time.RFC3339, text)
	if err != nil {
		t.Fatal(err)
	}
	return parsed
}

// When the retention preview says the next run is: `go test -run TestNextRun ./internal/lifecycle`.
func TestNextRunOfTheDefaultAndOtherSchedules(t *testing.T) {
	for _, c := range []struct{ expression, after, want string }{
		{"30 3 * * *", "2026-11-24T17:00:00Z", "2026-11-25T03:30:00Z"},
		{"30 3 * * *", "2026-11-24T03:29:59Z", "2026-11-24T03:30:00Z"},
		{"30 3 * * *", "2026-11-24T03:30:00Z", "2026-11-25T03:30:00Z"},
		{"*/15 * * * *", "2026-11-24T17:01:00Z", "2026-11-24T17:15:00Z"},
		{"0 9 * * 1", "2026-11-24T17:00:00Z", "2026-11-30T09:00:00Z"}, // a Monday
		{"0 0 1 1,7 *", "2026-11-24T17:00:00Z", "2027-01-01T00:00:00Z"},
		{"@daily", "2026-11-24T17:00:00Z", "2026-11-25T00:00:00Z"},
		{"1-30/2 22 * * *", "2026-11-24T22:29:00Z", "2026-11-25T22:01:00Z"},
		{"59 23 31 12 *", "2026-12-31T23:58:30Z", "2026-12-31T23:59:00Z"},
	} {
		got, ok := nextRun(c.expression, at(t, c.after))
		if !ok || !got.Equal(at(t, c.want)) {
			t.Errorf("nextRun(%q, %s) = %s, %v; want %s", c.expression, c.after, got, ok, c.want)
		}
	}
}

func TestNextRunBeyondTheHorizonOrUnreadableIsNone(t *testing.T) {
	for _, expression := range []string{"0 0 31 2 *", "not a schedule", "61 * * * *"} {
		if got, ok := nextRun(expression, at(t, "2026-11-24T17:00:00Z")); ok {
			t.Errorf("nextRun(%q) = %s; want none", expression, got)
		}
	}
	// the 29th of February, 2028: 462 days after, past the 400 days looked at; 365 days before it, it is found
	if got, ok := nextRun("0 0 29 2 *", at(t, "2026-11-24T17:00:00Z")); ok {
		t.Errorf("nextRun(leap day) = %s; want none", got)
	}
	if got, ok := nextRun("0 0 29 2 *", at(t, "2027-03-01T00:00:00Z")); !ok || !got.Equal(at(t, "2028-02-29T00:00:00Z")) {
		t.Errorf("nextRun(leap day) = %s, %v; want 2028-02-29", got, ok)
	}
}

// The next run found by skipping whole days and hours is the one a walk of every minute finds.
func TestNextRunAgreesWithAMinuteByMinuteWalk(t *testing.T) {
	expressions := []string{"30 3 * * *", "*/7 */5 * * *", "0 9 * * 1-5", "15 0 1,15 * *", "5 4 * 2 0", "@hourly", "@weekly", "0 0 1 1 *"}
	after := at(t, "2026-11-24T17:03:10Z")
	for _, expression := range expressions {
		got, ok := nextRun(expression, after)
		want, wantOk := walkEveryMinute(t, expression, after)
		if ok != wantOk || !got.Equal(want) {
			t.Errorf("nextRun(%q) = %s, %v; a walk of every minute finds %s, %v", expression, got, ok, want, wantOk)
		}
	}
}

func walkEveryMinute(t *testing.T, expression string, after time.Time) (time.Time, bool) {
	t.Helper()
	schedule, err := cron.NewSchedule(expression)
	if err != nil {
		t.Fatal(err)
	}
	start := after.Truncate(time.Minute).Add(time.Minute)
	year, month, day := start.Date()
	end := time.Date(year, month, day+nextRunHorizonDays+1, 0, 0, 0, 0, time.UTC)
	for m := start; m.Before(end); m = m.Add(time.Minute) {
		if schedule.IsDue(cron.NewMoment(m)) {
			return m, true
		}
	}
	return time.Time{}, false
}

// How far back a period reaches: calendar months, the 31st of a shorter month being its last day.
func TestMonthsBefore(t *testing.T) {
	for _, c := range []struct {
		from   string
		months int
		want   string
	}{
		{"2026-11-24T17:00:00Z", 6, "2026-05-24T17:00:00Z"},
		{"2026-08-31T12:00:00Z", 6, "2026-02-28T12:00:00Z"},
		{"2026-01-15T00:00:00Z", 24, "2024-01-15T00:00:00Z"},
		{"2028-08-31T12:00:00Z", 6, "2028-02-29T12:00:00Z"},
		{"2026-03-31T08:15:00Z", 1, "2026-02-28T08:15:00Z"},
		{"2026-02-10T00:00:00Z", 36, "2023-02-10T00:00:00Z"},
	} {
		if got := monthsBefore(at(t, c.from), c.months); !got.Equal(at(t, c.want)) {
			t.Errorf("monthsBefore(%s, %d) = %s; want %s", c.from, c.months, got, c.want)
		}
	}
}
