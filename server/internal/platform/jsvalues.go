package platform

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// What a client's JSON body holds is read the way the product always read it, and the way the SPA reads the same
// values (JavaScript's String, Number, trim and length), so a request is judged alike on both sides and a body that
// was accepted before is accepted now. One copy here for every route that reads a loosely typed body.

// JSString is JavaScript's String(value) of a JSON value; "" for null or missing.
func JSString(value any) string {
	switch v := value.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return jsNumberText(v)
	case json.Number:
		if f, err := v.Float64(); err == nil {
			return jsNumberText(f)
		}
		return v.String()
	case []any:
		parts := make([]string, len(v))
		for i, item := range v {
			parts[i] = JSString(item)
		}
		return strings.Join(parts, ",")
	case map[string]any:
		return "[object Object]"
	}
	return ""
}

// JSText is String(value || ""): a falsy value (false, 0, NaN, "", null) is "".
func JSText(value any) string {
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
	return JSString(value)
}

// jsNumberText is a number's text as JavaScript writes it (whole numbers without a fraction or exponent up to 1e21).
func jsNumberText(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// JSNumber is JavaScript's Number(value) of a JSON value: null and "" are 0, true 1, a one-item array its item's
// number; NaN for what is no number.
func JSNumber(value any) float64 {
	switch v := value.(type) {
	case nil:
		return 0
	case float64:
		return v
	case json.Number:
		return jsStringNumber(v.String())
	case bool:
		if v {
			return 1
		}
		return 0
	case string:
		return jsStringNumber(v)
	case []any:
		switch len(v) {
		case 0:
			return 0
		case 1:
			return jsStringNumber(JSString(v[0]))
		}
	}
	return math.NaN()
}

func jsStringNumber(text string) float64 {
	text = JSTrim(text)
	if text == "" {
		return 0
	}
	if len(text) > 2 && text[0] == '0' {
		base := 0
		switch text[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			n, err := strconv.ParseUint(text[2:], base, 64)
			if err != nil || strings.ContainsAny(text[2:], "_+-") {
				return math.NaN()
			}
			return float64(n)
		}
	}
	switch strings.TrimPrefix(strings.TrimPrefix(text, "+"), "-") {
	case "Infinity":
		if text[0] == '-' {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	// Go also reads hex floats, "inf", "nan" and digit separators, which Number does not
	if strings.ContainsAny(text, "_xXpPnNiI") {
		return math.NaN()
	}
	n, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return math.NaN()
	}
	return n
}

// JSTrim is String.prototype.trim: JavaScript's white space and line terminators at both ends (not U+0085, which
// Go counts as space).
func JSTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
			return true
		}
		return r >= 0x2000 && r <= 0x200a
	})
}

// JSLength is a string's length in UTF-16 code units, as JavaScript counts it.
func JSLength(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// EncodeURIComponent is JavaScript's: every byte but A-Z a-z 0-9 - _ . ! ~ * ' ( ) percent-encoded (the links the
// SPA reads back with decodeURIComponent).
func EncodeURIComponent(value string) string {
	var out strings.Builder
	for i := 0; i < len(value); i++ {
		c := value[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			out.WriteByte(c)
			continue
		}
		fmt.Fprintf(&out, "%%%02X", c)
	}
	return out.String()
}
