// Package analytics: the hiring funnel of a job and of a company (invited → link opened → agreed → started →
// completed → decided), where candidates stopped, how long they took, completion by invite week and what the
// reminders changed; and the milestones it needs that no other domain keeps (when a candidate was invited, first
// opened their link, first opened a question). It reads what the other domains store and imports none of them, so
// they may call it (the interview read notes a link's first opening here).
package analytics

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerMilestones(app)
	registerLinkOpened(app)
	registerRoutes(app)
	registerFigures(app)
}
