// Package review: Reviewing a candidate: the review read, the managers-only fields, ratings and comments, share
// links, captions and transcript downloads.
package review

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerCandidateEnrich(app)
	registerReview(app)
	registerShareLinks(app)
	registerCaptions(app)
	registerRatingRules(app)
	registerCommentRules(app)
}
