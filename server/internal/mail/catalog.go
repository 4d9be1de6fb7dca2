package mail

import (
	"embed"
	"encoding/json"
	"fmt"
	htmltemplate "html/template"
	"strings"
	"time"

	"screenroom/server/internal/platform"
)

// The words of the e-mails a candidate receives, one catalog per language: locales/<language>.json, a flat
// { "area.key": "message" } with keys sorted, in the SPA's catalog shape (ICU message syntax), of which the e-mails use
// only plain text and simple {name} arguments: the phrases are written around plurals and choices instead. English
// is the reference: every catalog has exactly its keys and, per message, its arguments (catalog_test.go, and
// scripts/translations.test.ts for the whole project). A key a catalog lacks falls back to English, so a gap shows
// English words rather than a broken e-mail.

//go:embed locales/*.json
var localeFiles embed.FS

// Locale is one language's catalog, its messages read once.
type Locale struct {
	Language string
	messages map[string]message
}

// message is a catalog message cut at its arguments: text[0] arg[0] text[1] arg[1] ... text[n].
type message struct {
	texts []string
	args  []string
}

var locales = loadLocales()

func loadLocales() map[string]*Locale {
	loaded := map[string]*Locale{}
	for _, language := range platform.Languages {
		raw, err := localeFiles.ReadFile("locales/" + language + ".json")
		if err != nil {
			panic(fmt.Sprintf("mail: the %s catalog is missing: %v", language, err))
		}
		catalog, err := parseCatalog(raw)
		if err != nil {
			panic(fmt.Sprintf("mail: the %s catalog: %v", language, err))
		}
		loaded[language] = &Locale{Language: language, messages: catalog}
	}
	return loaded
}

// parseCatalog reads one catalog file.
func parseCatalog(raw []byte) (map[string]message, error) {
	var texts map[string]string
	if err := json.Unmarshal(raw, &texts); err != nil {
		return nil, err
	}
	catalog := make(map[string]message, len(texts))
	for key, text := range texts {
		parsed, err := parseMessage(text)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		catalog[key] = parsed
	}
	return catalog, nil
}

// parseMessage cuts an ICU message made of text and simple {name} arguments. The apostrophe follows ICU's rules (a
// doubled one is one apostrophe; one before { or } quotes up to the next apostrophe), so a message reads here as the
// SPA's parser reads it; anything else in braces (plural, select, a formatted argument) is refused.
func parseMessage(text string) (message, error) {
	var parsed message
	var current strings.Builder
	runes := []rune(text)
	for i := 0; i < len(runes); i++ {
		r := runes[i]
		switch {
		case r == '\'' && i+1 < len(runes) && runes[i+1] == '\'':
			current.WriteRune('\'')
			i++
		case r == '\'' && i+1 < len(runes) && (runes[i+1] == '{' || runes[i+1] == '}'):
			end := i + 1
			for end < len(runes) && runes[end] != '\'' {
				end++
			}
			current.WriteString(string(runes[i+1 : end]))
			i = end
		case r == '{':
			end := i + 1
			for end < len(runes) && runes[end] != '}' {
				end++
			}
			if end == len(runes) {
				return message{}, fmt.Errorf("an argument is not closed in %q", text)
			}
			name := string(runes[i+1 : end])
			if !isArgumentName(name) {
				return message{}, fmt.Errorf("only simple arguments such as {name}, not {%s}, in %q", name, text)
			}
			parsed.texts = append(parsed.texts, current.String())
			parsed.args = append(parsed.args, name)
			current.Reset()
			i = end
		case r == '}':
			return message{}, fmt.Errorf("a } without its { in %q", text)
		default:
			current.WriteRune(r)
		}
	}
	parsed.texts = append(parsed.texts, current.String())
	return parsed, nil
}

func isArgumentName(name string) bool {
	if name == "" {
		return false
	}
	for i, r := range name {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '_')) {
			return false
		}
	}
	return true
}

// LocaleFor is language's catalog; English for an empty or unknown language.
func LocaleFor(language string) *Locale {
	if locale, ok := locales[language]; ok {
		return locale
	}
	return locales[platform.DefaultLanguage]
}

// RightToLeft reports whether the language is written right to left.
func (l *Locale) RightToLeft() bool {
	return platform.IsRightToLeft(l.Language)
}

// Dir is the HTML dir attribute's value for the language.
func (l *Locale) Dir() string {
	if l.RightToLeft() {
		return "rtl"
	}
	return "ltr"
}

func (l *Locale) message(key string) message {
	if found, ok := l.messages[key]; ok {
		return found
	}
	if found, ok := locales[platform.DefaultLanguage].messages[key]; ok {
		return found
	}
	return message{texts: []string{key}}
}

// Value is a piece of an e-mail as plain text and as HTML: an argument of a message, or a message said.
type Value struct {
	Text string
	HTML htmltemplate.HTML
}

// Plain is text, escaped in HTML.
func Plain(text string) Value {
	return Value{Text: text, HTML: htmltemplate.HTML(htmltemplate.HTMLEscapeString(text))}
}

// Strong is text set in bold in HTML.
func Strong(text string) Value {
	return Value{Text: text, HTML: "<strong>" + htmltemplate.HTML(htmltemplate.HTMLEscapeString(text)) + "</strong>"}
}

// Link is an address, a link to itself in HTML.
func Link(url string) Value {
	escaped := htmltemplate.HTMLEscapeString(url)
	return Value{Text: url, HTML: htmltemplate.HTML(`<a href="` + escaped + `">` + escaped + `</a>`)}
}

// Say is the message key with its arguments put in: the message's own text escaped, each argument as given. An
// argument the message names but args lacks is left as {name}.
func (l *Locale) Say(key string, args map[string]Value) Value {
	m := l.message(key)
	var text, html strings.Builder
	for i, literal := range m.texts {
		text.WriteString(literal)
		html.WriteString(htmltemplate.HTMLEscapeString(literal))
		if i < len(m.args) {
			value, ok := args[m.args[i]]
			if !ok {
				value = Plain("{" + m.args[i] + "}")
			}
			text.WriteString(value.Text)
			html.WriteString(string(value.HTML))
		}
	}
	return Value{Text: text.String(), HTML: htmltemplate.HTML(html.String())}
}

// Text is the message key as plain text, its arguments put in as they are (a subject line).
func (l *Locale) Text(key string, args map[string]string) string {
	values := make(map[string]Value, len(args))
	for name, arg := range args {
		values[name] = Value{Text: arg}
	}
	return l.Say(key, values).Text
}

// DateTime is the moment t as the language writes a day and a time (date.at: "24 November 2026 at 13:00 CET
// (Europe/Berlin)"), on the 24-hour clock of zone, with the zone's name: its abbreviation and its IANA name, or
// "UTC" alone. Month names are the catalog's (date.month01 to date.month12, each in the form a date takes). In a
// language written right to left the zone's Latin name is isolated (<bdi>), so its parentheses stay where they are.
func (l *Locale) DateTime(t time.Time, zone *time.Location) Value {
	local := t.In(zone)
	name := ZoneName(local)
	zoneValue := Plain(name)
	if l.RightToLeft() {
		zoneValue.HTML = `<bdi dir="ltr">` + zoneValue.HTML + `</bdi>`
	}
	return l.Say("date.at", map[string]Value{
		"day":   Plain(fmt.Sprint(local.Day())),
		"month": Plain(l.Say(fmt.Sprintf("date.month%02d", int(local.Month())), nil).Text),
		"year":  Plain(fmt.Sprint(local.Year())),
		"time":  Plain(local.Format("15:04")),
		"zone":  zoneValue,
	})
}

// ZoneName names the time zone of t as e-mails state it: "CET (Europe/Berlin)" (the abbreviation in force at t, and
// the IANA name), "UTC+04 (Asia/Dubai)" where the zone database has no abbreviation but an offset, "UTC" for UTC.
func ZoneName(t time.Time) string {
	iana := t.Location().String()
	abbreviation, _ := t.Zone()
	if iana == "UTC" || iana == "" {
		return "UTC"
	}
	if strings.HasPrefix(abbreviation, "+") || strings.HasPrefix(abbreviation, "-") {
		offset := abbreviation
		if len(offset) == 5 { // +0545
			offset = offset[:3] + ":" + offset[3:]
		}
		abbreviation = "UTC" + offset
	}
	if abbreviation == iana {
		return iana
	}
	return abbreviation + " (" + iana + ")"
}
