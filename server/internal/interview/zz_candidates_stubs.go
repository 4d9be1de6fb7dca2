package interview

// TEMPORARY stubs (branch p48-candidates only, never landed): the real ones come with the port of interview-rules.js
// and progress.js.

import (
	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

func RefusePastDeadline(app core.App, record *core.Record) error {
	deadline := record.GetString("deadline")
	changed := record.IsNew() || deadline != record.Original().GetString("deadline")
	if deadline == "" || !changed {
		return nil
	}
	if t, ok := platform.ParseDBTime(deadline); !ok || t.UnixMilli() <= platform.NowMs(app) {
		return platform.FieldError("deadline", "The deadline must be in the future.", "validation_past_deadline")
	}
	return nil
}
