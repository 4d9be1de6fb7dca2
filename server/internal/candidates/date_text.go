package candidates

import (
	"strings"
	"time"
)

// A CSV deadline cell is whatever a spreadsheet wrote: "2026-12-31", "2026-12-31T17:00:00Z", "12/31/2026 5:00 pm",
// "31 Dec 2026". The import took every text the JS engine's Date.parse took (goja, which ran the hooks), and still
// does: parseDateText reads the same texts the same way (the ECMAScript date-time format first, then the looser
// forms goja accepts), as the unit test checks against goja itself. A text without a time zone is the server's
// local time, as Date.parse read it.

// maxDateMs is ECMAScript's time value range: ±100,000,000 days from the epoch.
const maxDateMs = 8.64e15

type dateParts struct {
	year, month, day     int
	hour, min, sec, msec int
	offsetMinutes        int
	local                bool
}

// parseDateText is Date.parse(text) in milliseconds since the epoch; ok false where Date.parse gives NaN.
func parseDateText(text string) (ms int64, ok bool) {
	d, ok := parseISODate(text)
	if !ok {
		d, ok = parseLooseDate(text)
	}
	if !ok || d.month > 12 || d.day > 31 || d.hour > 24 || d.min > 59 || d.sec > 59 ||
		(d.hour == 24 && (d.min != 0 || d.sec != 0 || d.msec != 0)) {
		return 0, false
	}
	loc := time.Local
	if !d.local {
		loc = time.FixedZone("", d.offsetMinutes*60)
	}
	ms = time.Date(d.year, time.Month(d.month), d.day, d.hour, d.min, d.sec, d.msec*1e6, loc).UnixMilli()
	return ms, ms >= -maxDateMs && ms <= maxDateMs
}

func skipByte(s string, c byte) (string, bool) {
	if len(s) > 0 && s[0] == c {
		return s[1:], true
	}
	return s, false
}

func skipSpaces(s string) string {
	return strings.TrimLeft(s, " ")
}

// skipUntil drops bytes up to the first of stop (or all).
func skipUntil(s, stop string) string {
	if i := strings.IndexAny(s, stop); i >= 0 {
		return s[i:]
	}
	return ""
}

// matchWord consumes lower (ASCII, lower case) at the start of s, in any case.
func matchWord(s, lower string) (string, bool) {
	if len(s) < len(lower) {
		return s, false
	}
	for i := 0; i < len(lower); i++ {
		c := s[i]
		if c != lower[i] {
			c |= 'a' - 'A'
			if c != lower[i] || c < 'a' || c > 'z' {
				return s, false
			}
		}
	}
	return s[len(lower):], true
}

// digits reads between min and max decimal digits.
func digits(s string, min, max int) (int, string, bool) {
	i, v := 0, 0
	for i < len(s) && i < max && s[i] >= '0' && s[i] <= '9' {
		v = v*10 + int(s[i]-'0')
		i++
	}
	if i < min {
		return 0, s, false
	}
	return v, s[i:], true
}

// milliseconds reads a fraction of a second after '.' or ',' (up to nine digits, milliseconds kept).
func milliseconds(s string) (int, string) {
	if len(s) == 0 || (s[0] != '.' && s[0] != ',') {
		return 0, s
	}
	mul, v, i := 100, 0, 1
	for i < len(s) && i-1 < 9 && s[i] >= '0' && s[i] <= '9' {
		v += int(s[i]-'0') * mul
		mul /= 10
		i++
	}
	if i == 1 {
		return 0, s
	}
	return v, s[i:]
}

// zoneOffset reads Z, ±HH:mm or ±HHmm (strict: exactly two or four digits) in minutes.
func zoneOffset(s string, strict bool) (int, string, bool) {
	if len(s) == 0 {
		return 0, s, false
	}
	switch sign := s[0]; sign {
	case 'Z':
		return 0, s[1:], true
	case '+', '-':
		t := s[1:]
		n := len(t)
		hh, t, ok := digits(t, 1, 9)
		if !ok {
			return 0, s, false
		}
		n -= len(t)
		if strict && n != 2 && n != 4 {
			return 0, s, false
		}
		for n > 4 {
			n -= 2
			hh /= 100
		}
		mm := 0
		if n > 2 {
			mm, hh = hh%100, hh/100
		} else if t, ok = skipByte(t, ':'); ok {
			if mm, t, ok = digits(t, 2, 2); !ok {
				return 0, s, false
			}
		}
		if hh > 23 || mm > 59 {
			return 0, s, false
		}
		v := hh*60 + mm
		if sign == '-' {
			v = -v
		}
		return v, t, true
	}
	return 0, s, false
}

var zoneNames = []struct {
	name   string
	offset int
}{
	{"gmt", 0}, {"utc", 0}, {"ut", 0}, {"z", 0},
	{"edt", -4 * 60}, {"est", -5 * 60}, {"cdt", -5 * 60}, {"cst", -6 * 60},
	{"mdt", -6 * 60}, {"mst", -7 * 60}, {"pdt", -7 * 60}, {"pst", -8 * 60},
	{"wet", 0}, {"west", 60}, {"cet", 60}, {"cest", 2 * 60}, {"eet", 2 * 60}, {"eest", 3 * 60},
}

var monthNames = []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"}

// parseISODate reads ECMAScript's date-time format: YYYY[-MM[-DD]][THH:mm[:ss[.sss]]][Z|±HH:mm], or a six-digit
// signed year. A date alone is UTC, a date-time without a zone local.
func parseISODate(s string) (dateParts, bool) {
	if len(s) == 0 {
		return dateParts{}, false
	}
	d := dateParts{month: 1, day: 1}
	var ok bool
	if sign := s[0]; sign == '-' || sign == '+' {
		if d.year, s, ok = digits(s[1:], 6, 6); !ok || (sign == '-' && d.year == 0) {
			return dateParts{}, false
		}
		if sign == '-' {
			d.year = -d.year
		}
	} else if d.year, s, ok = digits(s, 4, 4); !ok {
		return dateParts{}, false
	}
	if s, ok = skipByte(s, '-'); ok {
		if d.month, s, ok = digits(s, 2, 2); !ok || d.month < 1 {
			return dateParts{}, false
		}
		if s, ok = skipByte(s, '-'); ok {
			if d.day, s, ok = digits(s, 2, 2); !ok || d.day < 1 {
				return dateParts{}, false
			}
		}
	}
	if s, ok = skipByte(s, 'T'); ok {
		if d.hour, s, ok = digits(s, 2, 2); !ok {
			return dateParts{}, false
		}
		if s, ok = skipByte(s, ':'); !ok {
			return dateParts{}, false
		}
		if d.min, s, ok = digits(s, 2, 2); !ok {
			return dateParts{}, false
		}
		if s, ok = skipByte(s, ':'); ok {
			if d.sec, s, ok = digits(s, 2, 2); !ok {
				return dateParts{}, false
			}
			d.msec, s = milliseconds(s)
		}
		d.local = true
	}
	if len(s) > 0 {
		if d.offsetMinutes, s, ok = zoneOffset(s, true); !ok {
			return dateParts{}, false
		}
		d.local = false
	}
	return d, len(s) == 0
}

// twoDigitYear is a short year as Date.parse reads it: 50-99 in the 1900s, 0-49 in the 2000s.
func twoDigitYear(v int) int {
	year := v
	if v < 100 {
		year += 1900
	}
	if v < 50 {
		year += 100
	}
	return year
}

// parseLooseDate reads the other forms: numbers, month names, a time with am/pm, zone names or offsets, words and
// parenthesised remarks skipped ("Thu, 31 Dec 2026 17:00:00 GMT", "12/31/2026", "Dec 31, 2026 5:00 pm").
func parseLooseDate(s string) (dateParts, bool) {
	d := dateParts{year: 2001, month: 1, day: 1, local: true}
	var nums [3]int
	var count int
	var hasYear, hasMonth, hasTime, ok bool
	for {
		s = skipSpaces(s)
		if len(s) == 0 {
			break
		}
		c, n, val := s[0], len(s), 0
		if c == '+' || c == '-' {
			if hasTime {
				if val, s, ok = zoneOffset(s, false); ok {
					d.offsetMinutes, d.local = val, false
				}
			}
			if !hasTime || !ok {
				s = s[1:]
				if val, s, ok = digits(s, 1, 9); ok {
					if c == '-' {
						if val == 0 {
							return dateParts{}, false
						}
						val = -val
					}
					d.year, hasYear = val, true
				}
			}
		} else if val, s, ok = digits(s, 1, 9); ok {
			if s, ok = skipByte(s, ':'); ok {
				d.hour = val
				if d.min, s, ok = digits(s, 1, 2); !ok {
					return dateParts{}, false
				}
				if s, ok = skipByte(s, ':'); ok {
					if d.sec, s, ok = digits(s, 1, 2); !ok {
						return dateParts{}, false
					}
					d.msec, s = milliseconds(s)
				}
				hasTime = true
				if t := skipSpaces(s); len(t) > 0 {
					if t, ok = matchWord(t, "pm"); ok {
						if d.hour < 12 {
							d.hour += 12
						}
						s = t
						continue
					} else if t, ok = matchWord(t, "am"); ok {
						if d.hour == 12 {
							d.hour = 0
						}
						s = t
						continue
					}
				}
			} else if n-len(s) > 2 {
				d.year, hasYear = val, true
			} else if val < 1 || val > 31 {
				d.year, hasYear = twoDigitYear(val), true
			} else {
				if count == 3 {
					return dateParts{}, false
				}
				nums[count] = val
				count++
			}
		} else if val, s, ok = monthOf(s); ok {
			d.month, hasMonth = val, true
			s = skipUntil(s, "0123456789 -/(")
		} else if val, s, ok = zoneOf(s); ok {
			d.offsetMinutes = val
			if len(s) > 0 && ((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')) {
				return dateParts{}, false
			}
			d.local = false
			continue
		} else if c == '(' {
			level := 1
			s = s[1:]
			for len(s) > 0 && level != 0 {
				if s[0] == '(' {
					level++
				} else if s[0] == ')' {
					level--
				}
				s = s[1:]
			}
			if level > 0 {
				return dateParts{}, false
			}
		} else if c == ')' {
			return dateParts{}, false
		} else {
			// a word (a weekday) only before anything of the date
			if hasYear || hasMonth || hasTime || count > 0 {
				return dateParts{}, false
			}
			s = skipUntil(s, " -/(")
		}
		s = strings.TrimLeft(s, "-/.,")
	}
	n := count
	if hasYear {
		n++
	}
	if hasMonth {
		n++
	}
	if n > 3 {
		return dateParts{}, false
	}
	switch count {
	case 0:
		if !hasYear {
			return dateParts{}, false
		}
	case 1:
		if hasMonth {
			d.day = nums[0]
		} else {
			d.month = nums[0]
		}
	case 2:
		switch {
		case hasYear:
			d.month, d.day = nums[0], nums[1]
		case hasMonth:
			d.year, d.day = twoDigitYear(nums[1]), nums[0]
		default:
			d.month, d.day = nums[0], nums[1]
		}
	case 3:
		d.year, d.month, d.day = twoDigitYear(nums[2]), nums[0], nums[1]
	}
	return d, d.month > 0 && d.day > 0
}

func monthOf(s string) (int, string, bool) {
	for i, name := range monthNames {
		if rest, ok := matchWord(s, name); ok {
			return i + 1, rest, true
		}
	}
	return 0, s, false
}

func zoneOf(s string) (int, string, bool) {
	for _, zone := range zoneNames {
		if rest, ok := matchWord(s, zone.name); ok {
			return zone.offset, rest, true
		}
	}
	return 0, s, false
}
