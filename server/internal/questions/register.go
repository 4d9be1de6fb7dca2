// Package questions: a company's questions: the questions list, and one kind (video or text) a question.
package questions

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerQuestionsList(app)
	registerQuestionKinds(app)
}
