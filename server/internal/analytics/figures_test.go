package analytics

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestStampMsReadsPocketBaseDatesAsTheTimePackageDoes(t *testing.T) {
	for _, text := range []string{
		"2024-02-29 23:59:59.999Z",
		"1970-01-01 00:00:00.000Z",
		"2000-03-01 12:34:56.789Z",
		"2099-12-31 00:00:00.001Z",
		"2024-03-10 07:00:00Z",     // without milliseconds: the slow path
		"2024-03-10T07:00:00.250Z", // ISO 8601 with a T
	} {
		want, err := time.Parse("2006-01-02 15:04:05.999Z", text)
		if err != nil {
			want, _ = time.Parse(time.RFC3339Nano, text)
		}
		got, ok := stampMs([]byte(text))
		if !ok || got != want.UnixMilli() {
			t.Errorf("stampMs(%q) = %d, %v; want %d", text, got, ok, want.UnixMilli())
		}
	}
	for _, text := range []string{"", "soon", "2024-13-01 00:00:00.000Z"} {
		if _, ok := stampMs([]byte(text)); ok {
			t.Errorf("stampMs(%q) read a date", text)
		}
	}
}

func TestPercentileIsTheNearestRank(t *testing.T) {
	values := []int64{10, 20, 30, 40, 50, 60, 70, 80, 90, 100}
	for _, c := range []struct {
		p    int
		want int64
	}{{50, 50}, {90, 90}, {91, 100}, {100, 100}, {1, 10}} {
		if got, _ := percentile(values, c.p); got != c.want {
			t.Errorf("p%d = %d, want %d", c.p, got, c.want)
		}
	}
	if got, _ := percentile([]int64{7}, 90); got != 7 {
		t.Errorf("one value: %d", got)
	}
	if _, ok := percentile(nil, 50); ok {
		t.Error("no values gave a percentile")
	}
	// four values: the median is the second, the 90th the fourth
	if m, _ := percentile([]int64{1, 2, 3, 4}, 50); m != 2 {
		t.Errorf("median of four = %d", m)
	}
}

func TestWeekOfIsTheMondayInTheZone(t *testing.T) {
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	minute := func(text string) int64 {
		at, err := time.Parse(time.RFC3339, text)
		if err != nil {
			t.Fatal(err)
		}
		return at.Unix() / 60
	}
	for _, c := range []struct {
		at   string
		zone *time.Location
		want string
	}{
		{"2024-03-11T02:00:00Z", time.UTC, "2024-03-11"},
		// still Sunday evening in New York
		{"2024-03-11T02:00:00Z", newYork, "2024-03-04"},
		{"2024-03-17T23:59:00Z", time.UTC, "2024-03-11"},
		// Monday 00:15 in Kolkata (UTC+5:30) while it is Sunday in UTC
		{"2024-03-17T18:45:00Z", kolkata, "2024-03-18"},
		{"2024-03-17T18:29:00Z", kolkata, "2024-03-11"},
		// across the change to summer time
		{"2024-03-10T12:00:00Z", newYork, "2024-03-04"},
	} {
		if got := weekOf(minute(c.at), c.zone); got != c.want {
			t.Errorf("weekOf(%s, %s) = %s, want %s", c.at, c.zone, got, c.want)
		}
	}
}

func TestWeeksOfFillsTheGapsAndSumsWhatIsBeforeTheLatestYear(t *testing.T) {
	at := func(text string) int64 {
		parsed, _ := time.Parse(time.DateOnly, text)
		return parsed.Unix() / 60
	}
	// two jobs: their invites add up in the week they share
	weeks, earlier := weeksOf([][]inviteCell{
		{{minute: at("2024-01-01"), invited: 3, completed: 1}, {minute: at("2024-01-17"), invited: 2, completed: 2}},
		{{minute: at("2024-01-21") + 23*60 + 59, invited: 1}},
		nil,
	}, time.UTC)
	want := []weekJSON{{Week: "2024-01-01", Invited: 3, Completed: 1}, {Week: "2024-01-08"}, {Week: "2024-01-15", Invited: 3, Completed: 2}}
	if len(weeks) != len(want) || earlier != nil {
		t.Fatalf("weeks %v, earlier %v", weeks, earlier)
	}
	for i := range want {
		if weeks[i] != want[i] {
			t.Errorf("week %d = %v, want %v", i, weeks[i], want[i])
		}
	}

	weeks, earlier = weeksOf([][]inviteCell{
		{{minute: at("2022-01-03"), invited: 4, completed: 1}, {minute: at("2023-06-05"), invited: 1}},
		{{minute: at("2024-06-03"), invited: 2, completed: 1}},
	}, time.UTC)
	if len(weeks) != maxWeeks || weeks[len(weeks)-1].Week != "2024-06-03" || weeks[0].Week != "2023-06-12" {
		t.Fatalf("%d weeks from %s to %s", len(weeks), weeks[0].Week, weeks[len(weeks)-1].Week)
	}
	if earlier == nil || *earlier != (earlierJSON{Before: "2023-06-12", Invited: 5, Completed: 1}) {
		t.Errorf("earlier = %v", earlier)
	}
	if weeks, earlier := weeksOf(nil, time.UTC); len(weeks) != 0 || earlier != nil {
		t.Errorf("no invites: %v %v", weeks, earlier)
	}
}

func TestWeeksOfCutsTheWeeksInTheZone(t *testing.T) {
	newYork, _ := time.LoadLocation("America/New_York")
	at := func(text string) int64 {
		parsed, _ := time.Parse(time.RFC3339, text)
		return parsed.Unix() / 60
	}
	// Monday 02:00 UTC is Sunday evening in New York; Monday 05:00 UTC is Monday there
	cells := []inviteCell{{minute: at("2024-03-11T02:00:00Z"), invited: 1}, {minute: at("2024-03-11T05:00:00Z"), invited: 2, completed: 1}}
	weeks, _ := weeksOf([][]inviteCell{cells}, newYork)
	want := []weekJSON{{Week: "2024-03-04", Invited: 1}, {Week: "2024-03-11", Invited: 2, Completed: 1}}
	if len(weeks) != 2 || weeks[0] != want[0] || weeks[1] != want[1] {
		t.Errorf("weeks %v, want %v", weeks, want)
	}
	if weeks, _ := weeksOf([][]inviteCell{cells}, time.UTC); len(weeks) != 1 || weeks[0].Invited != 3 {
		t.Errorf("in UTC: %v", weeks)
	}
}

func TestDurationOfPartsIsThePercentileOfAllTheirValues(t *testing.T) {
	random := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		parts := make([][]int64, 1+random.IntN(6))
		var all []int64
		for i := range parts {
			for range random.IntN(40) {
				parts[i] = append(parts[i], random.Int64N(100)*1000)
			}
			slices.Sort(parts[i])
			all = append(all, parts[i]...)
		}
		slices.Sort(all)
		got := durationOf(parts)
		if got.Candidates != len(all) {
			t.Fatalf("round %d: %d candidates, want %d", round, got.Candidates, len(all))
		}
		median, ok := percentile(all, 50)
		if !ok {
			if got.MedianSeconds != nil || got.P90Seconds != nil {
				t.Fatalf("round %d: figures of nothing", round)
			}
			continue
		}
		p90, _ := percentile(all, 90)
		if *got.MedianSeconds != median/1000 || *got.P90Seconds != p90/1000 {
			t.Fatalf("round %d: %d / %d, want %d / %d", round, *got.MedianSeconds, *got.P90Seconds, median/1000, p90/1000)
		}
	}
}

func TestNthSmallestIsTheSortedValue(t *testing.T) {
	random := rand.New(rand.NewPCG(3, 4))
	for round := range 300 {
		values := make([]int64, 1+random.IntN(50))
		for i := range values {
			values[i] = random.Int64N(20)
		}
		if round%3 == 0 {
			slices.Sort(values)
		}
		sorted := slices.Sorted(slices.Values(values))
		k := random.IntN(len(values))
		if got := nthSmallest(slices.Clone(values), k); got != sorted[k] {
			t.Fatalf("round %d: nthSmallest(%v, %d) = %d, want %d", round, values, k, got, sorted[k])
		}
	}
}
