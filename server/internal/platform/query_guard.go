package platform

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/pocketbase/pocketbase/tools/search"
	"github.com/pocketbase/pocketbase/tools/subscriptions"
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

// recordsListPattern is the pattern PocketBase registers its records list under (apis/record_crud.go), which Go's
// mux also routes HEAD requests to
const recordsListPattern = "GET /api/collections/{collection}/records"

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

var errSubscriptionOptions = router.NewBadRequestError("Invalid subscription options.", nil)

// subscriptionOptions is a realtime subscription ("{collection}/{topic}?...&options={json}") read the way PocketBase
// will apply it: by PocketBase's own subscriptions.DefaultClient.Subscribe (url.Parse, u.Query().Get("options"), its
// JSON into its options struct), so the guard judges the very filter, sort and expand each event will be sent under.
// What PocketBase would read differently from a plain reading, or only partly, is refused: a subscription url.Parse
// rejects, a query pair Go's query parsing drops (one with `;` or a bad escape), several `options` values (PocketBase
// takes the first), options that are not one JSON object or do not decode into PocketBase's struct (it ignores the
// error and keeps what decoded up to it).
func subscriptionOptions(subscription string) (collection string, options subscriptions.SubscriptionOptions, err error) {
	// events go to a subscription whose text starts with "{collection name or id}/{record id or *}?" (or the
	// deprecated "{collection}?"): the collection is the text before the first `/` or `?`
	topic, _, _ := strings.Cut(subscription, "?")
	collection, _, _ = strings.Cut(topic, "/")
	u, err := url.Parse(subscription)
	if err != nil {
		return collection, options, errSubscriptionOptions
	}
	values, err := url.ParseQuery(u.RawQuery)
	if err != nil || len(values[optionsParam]) > 1 {
		return collection, options, errSubscriptionOptions
	}
	if raw := values.Get(optionsParam); raw != "" {
		// the struct PocketBase decodes into (tools/subscriptions/client.go)
		decoded := struct {
			Query   map[string]any `json:"query"`
			Headers map[string]any `json:"headers"`
		}{}
		if trimmed := strings.TrimLeft(raw, " \t\r\n"); !strings.HasPrefix(trimmed, "{") || json.Unmarshal([]byte(raw), &decoded) != nil {
			return collection, options, errSubscriptionOptions
		}
	}
	client := subscriptions.NewDefaultClient()
	defer client.Discard()
	client.Subscribe(subscription)
	return collection, client.Subscriptions()[subscription], nil
}

// optionsParam is the query parameter PocketBase reads a subscription's options from
const optionsParam = "options"

// subscriptionExpressions are the filter and sort expressions of a subscription's options: every query key that
// reads as one whatever its case (PocketBase applies "filter"; the rest are judged so that no spelling slips by).
func subscriptionExpressions(options subscriptions.SubscriptionOptions) []string {
	var expressions []string
	for key, value := range options.Query {
		if strings.EqualFold(key, "filter") || strings.EqualFold(key, "sort") {
			expressions = append(expressions, value)
		}
	}
	return expressions
}

// listExpressions are the filter and sort expressions of a list request's query string, read as PocketBase's list
// handler reads them (url.ParseQuery through URL.Query().Encode() and the search provider's Parse, which apply the
// first value of each): every value of each, not only the first. A query string with pairs Go's parsing drops (`;`,
// a bad escape) is refused, as nothing says how another reader on the way would take them.
func listExpressions(rawQuery string) ([]string, error) {
	query, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, router.NewBadRequestError("This filter or sort is not allowed.", validation.Errors{
			"filter": validation.NewError("validation_invalid_query", "The query string has pairs that cannot be read."),
		})
	}
	var expressions []string
	for _, param := range []string{search.FilterQueryParam, search.SortQueryParam} {
		expressions = append(expressions, query[param]...)
	}
	return expressions, nil
}

func registerQueryGuard(app core.App) {
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Func: func(se *core.ServeEvent) error {
			se.Router.BindFunc(func(e *core.RequestEvent) error {
				// the request Go's mux routed to PocketBase's list handler (the route's pattern, so HEAD, an escaped
				// path or a collection named by id are judged as the handler will read them), as a client sends it
				if e.Request.Pattern == recordsListPattern && !e.HasSuperuserAuth() {
					expressions, err := listExpressions(e.Request.URL.RawQuery)
					if err != nil {
						return err
					}
					collection := collectionName(e.App, e.Request.PathValue("collection"))
					for _, expression := range expressions {
						if path := forbiddenPath(collection, expression); path != "" {
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
				collection, options, err := subscriptionOptions(subscription)
				if err != nil {
					return err
				}
				name := collectionName(e.App, collection)
				for _, expression := range subscriptionExpressions(options) {
					if path := forbiddenPath(name, expression); path != "" {
						return queryRefusal(path)
					}
				}
			}
		}
		return e.Next()
	})
}
