package candidates

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// The rows arrive as JSON a client wrote: a cell may be a number, a boolean, null or missing. The import reads each
// as text the way the SPA's own preview does (JavaScript's String, trim and length), so a row is judged alike on
// both sides.

// jsString is JavaScript's String(value) of a JSON value; "" for null or missing.
func jsString(value any) string {
	switch v := value.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return jsNumber(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return jsNumber(f)
		}
		return v.String()
	case []any:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = jsString(item)
		}
		return strings.Join(parts, ",")
	case map[string]any:
		return "[object Object]"
	}
	return ""
}

// jsText is String(value || ""): a falsy value (false, 0, "", null) is "".
func jsText(value any) string {
	switch v := value.(type) {
	case bool:
		if !v {
			return ""
		}
	case float64:
		if v == 0 || math.IsNaN(v) {
			return ""
		}
	}
	return jsString(value)
}

func jsNumber(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// jsTrim is String.prototype.trim: JavaScript's white space and line terminators at both ends.
func jsTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
			return true
		}
		return r >= 0x2000 && r <= 0x200a
	})
}

// jsLength is a string's length in UTF-16 code units, as JavaScript counts it.
func jsLength(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
