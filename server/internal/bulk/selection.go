package bulk

import (
	"fmt"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/pipeline"
	"screenroom/server/internal/platform"
)

// MaxCandidates is the most candidates one bulk request acts on (decisions.md: at most 1,000 a bulk action).
const MaxCandidates = 1000

// maxIDLength bounds a candidate id sent (PocketBase's ids are 15 characters); longer is no id.
const maxIDLength = 64

// selection is what a request chose: its candidates by id, or all that match the pipeline's filter.
type selection struct {
	ids    []string // in the order sent, each once
	filter *pipeline.Filter
}

// parseSelection reads {candidates: [id, ...]} or {filter: {status, decision, q}} from a request's body: exactly one
// of them. Nothing is read from the database here.
func parseSelection(body map[string]any) (selection, error) {
	rawIDs, hasIDs := body["candidates"]
	rawFilter, hasFilter := body["filter"]
	if hasIDs == hasFilter {
		return selection{}, platform.FieldError("candidates", "Choose candidates, or all that match the filter.", "validation_required")
	}
	if hasIDs {
		list, ok := rawIDs.([]any)
		if !ok {
			return selection{}, platform.FieldError("candidates", "Candidates are a list of candidate ids.", "validation_invalid_value")
		}
		if len(list) == 0 {
			return selection{}, platform.FieldError("candidates", "Choose at least one candidate.", "validation_required")
		}
		if len(list) > MaxCandidates {
			return selection{}, tooMany("candidates", len(list))
		}
		ids := make([]string, 0, len(list))
		seen := make(map[string]bool, len(list))
		for _, item := range list {
			id, ok := item.(string)
			if !ok || id == "" || len(id) > maxIDLength {
				return selection{}, platform.FieldError("candidates", "Candidates are a list of candidate ids.", "validation_invalid_value")
			}
			if !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		return selection{ids: ids}, nil
	}

	fields, ok := rawFilter.(map[string]any)
	if !ok {
		return selection{}, platform.FieldError("filter", "The filter is a status, a decision and a search.", "validation_invalid_value")
	}
	// the job is the route's: a filter that names anything else (another job among them) is refused, never ignored
	var f pipeline.Filter
	for name, value := range fields {
		text, isText := value.(string)
		if !isText {
			return selection{}, platform.FieldError("filter", fmt.Sprintf("The filter's %s must be text.", name), "validation_invalid_value")
		}
		switch name {
		case "status":
			f.Status = text
		case "decision":
			f.Decision = text
		case "q":
			f.Q = text
		default:
			return selection{}, platform.FieldError("filter", "The filter is a status, a decision and a search; nothing else.", "validation_unknown_field")
		}
	}
	if err := pipeline.FilterError(f); err != nil {
		return selection{}, err
	}
	return selection{filter: &f}, nil
}

// tooMany is the refusal of more than MaxCandidates, on field (candidates, or filter).
func tooMany(field string, count int) error {
	return platform.FieldError(field,
		fmt.Sprintf("A bulk action takes at most %s candidates; this is %s. Choose fewer, or narrow the filter.", thousands(MaxCandidates), thousands(count)),
		"validation_bulk_too_many")
}

// resolve reads the selection's candidates of job jobID: found, in the order chosen, and the ids sent that are no
// candidate of this job (unknown, another job's or another company's alike, so nothing tells them apart).
func resolve(app core.App, jobID string, s selection) (found []pipeline.Match, missing []string, err error) {
	if s.filter != nil {
		matches, total, err := pipeline.MatchingCandidates(app, jobID, *s.filter, MaxCandidates)
		if err != nil {
			return nil, nil, err
		}
		if total > MaxCandidates {
			return nil, nil, tooMany("filter", total)
		}
		if total == 0 {
			return nil, nil, platform.FieldError("filter", "No candidate matches this filter.", "validation_no_match")
		}
		return matches, nil, nil
	}
	args := make([]any, len(s.ids))
	for i, id := range s.ids {
		args[i] = id
	}
	rows := []pipeline.Match{}
	err = app.DB().Select("id", "email").From("candidates").
		Where(dbx.HashExp{"job": jobID}).AndWhere(dbx.In("id", args...)).
		All(&rows)
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[string]pipeline.Match, len(rows))
	for _, row := range rows {
		byID[row.ID] = row
	}
	for _, id := range s.ids {
		if match, ok := byID[id]; ok {
			found = append(found, match)
		} else {
			missing = append(missing, id)
		}
	}
	return found, missing, nil
}

// thousands writes n with a comma between thousands, as the product's English does (1,000).
func thousands(n int) string {
	text := fmt.Sprint(n)
	for i := len(text) - 3; i > 0; i -= 3 {
		text = text[:i] + "," + text[i:]
	}
	return text
}
