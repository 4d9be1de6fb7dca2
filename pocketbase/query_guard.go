package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	validation "github.com/go-ozzo/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
)

// The filter oracle (issue 13, finding 2): PocketBase checks the rules of related collections on a filter's main
// join but not inside the extra all-rows check it runs for `!=`, `>=`, `!~` and the like, so a relation path in a
// client's filter or sort could binary-search any related row's fields: from `users`, through
// `companies_via_managers.jobs_via_company.candidates_via_job`, the candidates, job titles and answers of a company
// the caller does not manage. Client filters and sorts (list requests and realtime subscriptions) may therefore name
// only the collection's own fields, `@request.*`, and the few relation paths the SPA uses, each of which stays
// inside records the caller may already list. Superusers are not limited. (A JS middleware before issue 26: it ran
// the JS VM on every request, 20-30% of a read's time.)

// allowedPaths are the relation paths a client may use, per collection: ids only, never another record's data.
var allowedPaths = map[string][]string{
	"companies":     {"managers.id"},
	"video_answers": {"answer.candidate"},
	"text_answers":  {"answer.candidate"},
}

// identifiers as PocketBase's lexer reads them: a letter, `@`, `_` or `#`, then letters, digits and those, joined by
// `.` (a relation path) or `:` (a modifier)
var identifierPath = regexp.MustCompile(`[@#A-Za-z_][@#A-Za-z0-9_]*(?:[.:][@#A-Za-z0-9_]*)*`)
var modifiers = regexp.MustCompile(`(:[@#A-Za-z0-9_]*)+$`)
var recordsPath = regexp.MustCompile(`^/api/collections/([^/]+)/records/?$`)

// codeOf is the expression with its string literals emptied and its comments removed, scanned left to right as
// PocketBase's filter lexer does: a quote inside a `//` comment starts no string, and `//` inside a string starts
// no comment.
func codeOf(expression string) string {
	var code strings.Builder
	for i := 0; i < len(expression); i++ {
		c := expression[i]
		switch {
		case c == '\'' || c == '"':
			i++
			for i < len(expression) && expression[i] != c {
				if expression[i] == '\\' {
					i += 2
				} else {
					i++
				}
			}
			code.WriteString("''")
		case c == '/' && i+1 < len(expression) && expression[i+1] == '/':
			for i < len(expression) && expression[i] != '\n' {
				i++
			}
			code.WriteByte(' ')
		default:
			code.WriteByte(c)
		}
	}
	return code.String()
}

// forbiddenPath is the first identifier path of a filter or sort expression a client may not use in collection, or "".
func forbiddenPath(collection, expression string) string {
	allowed := allowedPaths[collection]
	for _, path := range identifierPath.FindAllString(codeOf(expression), -1) {
		bare := modifiers.ReplaceAllString(path, "")
		if strings.HasPrefix(path, "@request.") {
			// the request's own values; from the signed-in record only its own fields, not relations onward
			if strings.Contains(path, "_via_") || (strings.HasPrefix(bare, "@request.auth.") && strings.Contains(strings.TrimPrefix(bare, "@request.auth."), ".")) {
				return path
			}
			continue
		}
		if strings.HasPrefix(strings.ToLower(path), "@collection") || strings.Contains(path, "_via_") {
			return path
		}
		if strings.Contains(bare, ".") && !contains(allowed, bare) {
			return path
		}
	}
	return ""
}

func contains(list []string, value string) bool {
	for _, v := range list {
		if v == value {
			return true
		}
	}
	return false
}

func queryRefusal(path string) error {
	return router.NewBadRequestError("This filter or sort is not allowed.", validation.Errors{
		"filter": validation.NewError("validation_forbidden_path", fmt.Sprintf("Filters and sorts may not follow relations (%s).", path)),
	})
}

// collectionName is the name of the collection `nameOrId` names, or itself (an unknown collection is PocketBase's
// 404 to give, or subscribes to nothing).
func collectionName(app core.App, nameOrId string) string {
	if collection, err := app.FindCachedCollectionByNameOrId(nameOrId); err == nil {
		return collection.Name
	}
	return nameOrId
}

// subscriptionQueries are the filters and sorts in a realtime subscription ("{collection}/{topic}?...&options={json}"),
// read as PocketBase reads them: the first `options` query parameter of the topic's URL, its JSON keys matched
// case-insensitively (Go's JSON decoding), every candidate key checked.
func subscriptionQueries(subscription string) (collection string, expressions []string, err error) {
	topic, rawQuery, hasQuery := strings.Cut(subscription, "?")
	collection, _, _ = strings.Cut(topic, "/")
	if !hasQuery {
		return collection, nil, nil
	}
	var raw string
	found := false
	for _, pair := range strings.Split(rawQuery, "&") {
		key, value, _ := strings.Cut(pair, "=")
		if k, e := url.QueryUnescape(key); e == nil && k == "options" {
			raw, err = url.QueryUnescape(value)
			if err != nil {
				return collection, nil, err
			}
			found = true
			break
		}
	}
	if !found || raw == "" {
		return collection, nil, nil
	}
	var options map[string]any
	if err := json.Unmarshal([]byte(raw), &options); err != nil {
		return collection, nil, err
	}
	for key, query := range options {
		if strings.ToLower(key) != "query" {
			continue
		}
		fields, ok := query.(map[string]any)
		if !ok {
			continue
		}
		for name, value := range fields {
			if lower := strings.ToLower(name); lower == "filter" || lower == "sort" {
				expressions = append(expressions, fmt.Sprint(value))
			}
		}
	}
	return collection, expressions, nil
}

func registerQueryGuard(app core.App) {
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Func: func(se *core.ServeEvent) error {
			se.Router.BindFunc(func(e *core.RequestEvent) error {
				// GET and HEAD alike (Go's router answers HEAD on GET routes, with the length of what GET would send)
				match := recordsPath.FindStringSubmatch(e.Request.URL.Path)
				if match != nil && e.Request.Method != http.MethodPost && !e.HasSuperuserAuth() {
					collection := collectionName(e.App, match[1])
					query := e.Request.URL.Query()
					for _, name := range []string{"filter", "sort"} {
						if path := forbiddenPath(collection, query.Get(name)); path != "" {
							return queryRefusal(path)
						}
					}
				}
				return e.Next()
			})
			return se.Next()
		},
	})
	app.OnRealtimeSubscribeRequest().BindFunc(func(e *core.RealtimeSubscribeRequestEvent) error {
		if !e.HasSuperuserAuth() {
			for _, subscription := range e.Subscriptions {
				collection, expressions, err := subscriptionQueries(subscription)
				if err != nil {
					return router.NewBadRequestError("Invalid subscription options.", nil)
				}
				name := collectionName(e.App, collection)
				for _, expression := range expressions {
					if path := forbiddenPath(name, expression); path != "" {
						return queryRefusal(path)
					}
				}
			}
		}
		return e.Next()
	})
}
