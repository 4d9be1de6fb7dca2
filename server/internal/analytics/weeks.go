package analytics

import (
	"sort"
	"time"
)

// What a company's figures add up over its jobs without sorting or converting each candidate again: the invite
// weeks from each job's invites (ascending by minute) against the weeks' first minutes, and the percentiles of the
// times to complete by selection over the jobs' values.

// maxWeeks is how many invite weeks are listed one by one, the latest; earlier ones are summed in earlierWeeks.
const maxWeeks = 52

// mondayOf is the start (00:00) of the week holding the minute, in zone.
func mondayOf(minute int64, zone *time.Location) time.Time {
	t := time.Unix(minute*60, 0).In(zone)
	back := (int(t.Weekday()) + 6) % 7 // days since Monday
	return time.Date(t.Year(), t.Month(), t.Day()-back, 0, 0, 0, 0, zone)
}

// weekOf is the Monday (a date, "2006-01-02") of the week holding the minute, in zone.
func weekOf(minute int64, zone *time.Location) string {
	return mondayOf(minute, zone).Format(time.DateOnly)
}

// weeksOf: the parts' invites summed per week (Monday to Sunday in zone) from the first invite's week to the last's,
// weeks without an invite included with zeros; the latest maxWeeks one by one, the ones before summed.
func weeksOf(parts [][]inviteCell, zone *time.Location) ([]weekJSON, *earlierJSON) {
	first, last := int64(0), int64(0)
	found := false
	for _, cells := range parts {
		if len(cells) == 0 {
			continue
		}
		if !found || cells[0].minute < first {
			first = cells[0].minute
		}
		if !found || cells[len(cells)-1].minute > last {
			last = cells[len(cells)-1].minute
		}
		found = true
	}
	if !found {
		return []weekJSON{}, nil
	}
	// each week's first minute, ascending
	var starts []time.Time
	var bounds []int64
	end := mondayOf(last, zone)
	for day := mondayOf(first, zone); !day.After(end); day = day.AddDate(0, 0, 7) {
		starts = append(starts, day)
		bounds = append(bounds, day.Unix()/60)
	}
	invited := make([]int, len(bounds))
	completed := make([]int, len(bounds))
	for _, cells := range parts {
		if len(cells) == 0 {
			continue
		}
		// the week of the part's first invite, then forward with its minutes
		week := sort.Search(len(bounds), func(i int) bool { return bounds[i] > cells[0].minute }) - 1
		for _, cell := range cells {
			for week+1 < len(bounds) && cell.minute >= bounds[week+1] {
				week++
			}
			invited[week] += cell.invited
			completed[week] += cell.completed
		}
	}
	from := max(0, len(bounds)-maxWeeks)
	weeks := make([]weekJSON, 0, len(bounds)-from)
	for i := from; i < len(bounds); i++ {
		weeks = append(weeks, weekJSON{Week: starts[i].Format(time.DateOnly), Invited: invited[i], Completed: completed[i]})
	}
	var earlier *earlierJSON
	if from > 0 {
		earlier = &earlierJSON{Before: starts[from].Format(time.DateOnly)}
		for i := range from {
			earlier.Invited += invited[i]
			earlier.Completed += completed[i]
		}
	}
	return weeks, earlier
}

// durationOf is the median and the 90th percentile (nearest rank, to the second) of the parts' values
// (milliseconds, each part ascending), and how many there are.
func durationOf(parts [][]int64) durationJSON {
	n := 0
	for _, values := range parts {
		n += len(values)
	}
	d := durationJSON{Candidates: n}
	if n == 0 {
		return d
	}
	var all []int64
	if len(parts) == 1 {
		all = parts[0]
	} else {
		all = make([]int64, 0, n)
		for _, values := range parts {
			all = append(all, values...)
		}
	}
	for _, p := range []struct {
		percent int
		into    **int64
	}{{50, &d.MedianSeconds}, {90, &d.P90Seconds}} {
		rank := max(1, (p.percent*n+99)/100) // ceil(p/100 × n)
		var value int64
		if len(parts) == 1 {
			value = all[rank-1]
		} else {
			value = nthSmallest(all, rank-1)
		}
		seconds := (value + 500) / 1000
		*p.into = &seconds
	}
	return d
}

// nthSmallest is the value that would be at index k of values sorted ascending; it reorders values (quickselect).
func nthSmallest(values []int64, k int) int64 {
	lo, hi := 0, len(values)-1
	for lo < hi {
		// the median of three as the pivot: sorted or reversed input stays linear
		mid := lo + (hi-lo)/2
		if values[mid] < values[lo] {
			values[mid], values[lo] = values[lo], values[mid]
		}
		if values[hi] < values[lo] {
			values[hi], values[lo] = values[lo], values[hi]
		}
		if values[hi] < values[mid] {
			values[hi], values[mid] = values[mid], values[hi]
		}
		pivot := values[mid]
		i, j := lo, hi
		for i <= j {
			for values[i] < pivot {
				i++
			}
			for values[j] > pivot {
				j--
			}
			if i <= j {
				values[i], values[j] = values[j], values[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return values[k]
		}
	}
	return values[k]
}
