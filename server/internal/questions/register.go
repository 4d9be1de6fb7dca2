// Package questions: Questions: the company's questions list.
package questions

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerQuestionsList(app)
}
