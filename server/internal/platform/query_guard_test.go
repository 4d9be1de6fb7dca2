package platform

import (
	"net/url"
	"reflect"
	"sort"
	"testing"

	"github.com/pocketbase/pocketbase/tools/subscriptions"
)

func optionsPair(json string) string {
	return "options=" + url.QueryEscape(json)
}

// The guard must read a subscription as PocketBase applies it, or refuse it.
func TestSubscriptionOptionsReadsWhatPocketBaseApplies(t *testing.T) {
	filter := `{"query":{"filter":"title != 'x'"}}`
	cases := []struct {
		name         string
		subscription string
		collection   string
		query        map[string]string
	}{
		{"no options", "users/*", "users", map[string]string{}},
		{"the deprecated collection topic", "users?" + optionsParam + "=" + url.QueryEscape(filter), "users", map[string]string{"filter": "title != 'x'"}},
		{"a collection named by id", "pbc_123/abc?" + optionsPair(filter), "pbc_123", map[string]string{"filter": "title != 'x'"}},
		{"after another parameter", "companies/S?x=1&" + optionsPair(filter), "companies", map[string]string{"filter": "title != 'x'"}},
		{"plus for a space", "companies/S?options=%7B%22query%22%3A%7B%22filter%22%3A%22a+!%3D+1%22%7D%7D", "companies", map[string]string{"filter": "a != 1"}},
		{"%20 for a space", "companies/S?options=%7B%22query%22%3A%7B%22filter%22%3A%22a%20!%3D%201%22%7D%7D", "companies", map[string]string{"filter": "a != 1"}},
		{"the key percent-encoded", "companies/S?%6Fptions=" + url.QueryEscape(filter), "companies", map[string]string{"filter": "title != 'x'"}},
		{"keys in capitals (Go's JSON matches them)", "companies/S?" + optionsPair(`{"QUERY":{"FILTER":"a","filter":"b"}}`), "companies", map[string]string{"FILTER": "a", "filter": "b"}},
		{"two spellings of query merge, the last value wins", "companies/S?" + optionsPair(`{"query":{"filter":"a"},"Query":{"filter":"b","sort":"c"}}`), "companies", map[string]string{"filter": "b", "sort": "c"}},
		{"a number as filter", "companies/S?" + optionsPair(`{"query":{"filter":5}}`), "companies", map[string]string{"filter": "5"}},
		{"an empty options value", "companies/S?options=", "companies", map[string]string{}},
		{"a fragment after the options", "companies/S?" + optionsPair(filter) + "#options=x", "companies", map[string]string{"filter": "title != 'x'"}},
		{"options in another case is not options", "companies/S?Options=" + url.QueryEscape(filter), "companies", map[string]string{}},
	}
	for _, c := range cases {
		collection, options, err := subscriptionOptions(c.subscription)
		if err != nil {
			t.Errorf("%s: refused: %v", c.name, err)
			continue
		}
		if collection != c.collection || !reflect.DeepEqual(options.Query, c.query) {
			t.Errorf("%s: read %q %v, want %q %v", c.name, collection, options.Query, c.collection, c.query)
		}
		// and it is what PocketBase's own client stores for the subscription
		client := subscriptions.NewDefaultClient()
		client.Subscribe(c.subscription)
		if stored := client.Subscriptions()[c.subscription]; !reflect.DeepEqual(stored.Query, options.Query) {
			t.Errorf("%s: PocketBase stores %v, the guard read %v", c.name, stored.Query, options.Query)
		}
	}
}

func TestSubscriptionOptionsRefusesWhatCannotBeReadTheSameWay(t *testing.T) {
	filter := `{"query":{"filter":"managers.companies_via_managers.jobs_via_company.title != 'Private job'"}}`
	cases := map[string]string{
		// the issue's request: Go's query parsing drops the first pair, PocketBase applies the second
		"a decoy pair with `;` before the options": "companies/S?options=%7B%22a%22%3A%22;%22%7D&" + optionsPair(filter),
		"a `;` inside the options":                 "companies/S?options=" + url.QueryEscape(filter) + ";",
		"a bare `;` pair":                          "companies/S?;&" + optionsPair(filter),
		"two options values":                       "companies/S?" + optionsPair(`{}`) + "&" + optionsPair(filter),
		"two options values, the same":             "companies/S?" + optionsPair(filter) + "&" + optionsPair(filter),
		"a bad escape in another pair":             "companies/S?x=%zz&" + optionsPair(filter),
		"a bad escape in the path":                 "companies/%zz?" + optionsPair(filter),
		"options that are null":                    "companies/S?options=null",
		"options that are an array":                "companies/S?" + optionsPair(`[{"query":{"filter":"a"}}]`),
		"options that are a string":                "companies/S?" + optionsPair(`"query"`),
		"options that are not JSON":                "companies/S?options=%7Bquery",
		"options PocketBase decodes only in part":  "companies/S?" + optionsPair(`{"query":{"filter":"a.b = 1"},"headers":1}`),
		"a query that is not an object":            "companies/S?" + optionsPair(`{"query":"filter"}`),
		"options followed by more JSON":            "companies/S?" + optionsPair(`{"query":{}} {"query":{"filter":"a"}}`),
	}
	for name, subscription := range cases {
		if _, _, err := subscriptionOptions(subscription); err == nil {
			t.Errorf("%s: accepted %q", name, subscription)
		}
	}
}

func TestSubscriptionExpressionsJudgesEveryFilterAndSortSpelling(t *testing.T) {
	got := subscriptionExpressions(subscriptions.SubscriptionOptions{Query: map[string]string{
		"filter": "a", "FILTER": "b", "Sort": "c", "expand": "d", "fields": "e",
	}})
	sort.Strings(got)
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(got, want) {
		t.Errorf("judged %v, want %v", got, want)
	}
}

func TestListExpressionsReadsEveryValueAndRefusesDroppedPairs(t *testing.T) {
	got, err := listExpressions("filter=a&filter=b+c&sort=d&x=1&%73ort=e")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a", "b c", "d", "e"}; !reflect.DeepEqual(got, want) {
		t.Errorf("judged %v, want %v", got, want)
	}
	for _, raw := range []string{"filter=a;b", "x=1;filter=a.b", "filter=%zz", "filter=a&;"} {
		if _, err := listExpressions(raw); err == nil {
			t.Errorf("accepted %q", raw)
		}
	}
}

// forbiddenPath on what the subscription carries: the issue's filter is refused once read the way PocketBase reads it
func TestTheIssuesSubscriptionIsRefused(t *testing.T) {
	_, options, err := subscriptionOptions("companies/S?x=1&" + optionsPair(`{"Query":{"filter":"managers.companies_via_managers.jobs_via_company.title != 'Private job'"}}`))
	if err != nil {
		t.Fatal(err)
	}
	refused := false
	for _, expression := range subscriptionExpressions(options) {
		refused = refused || forbiddenPath("companies", expression) != ""
	}
	if !refused {
		t.Errorf("the filter %v was not refused", options.Query)
	}
}
