// Package companies: Who manages a company. The creator is its owner and only initial manager; managers join only
// through invites; the owner always stays a manager, only the owner removes other managers, any other manager may
// remove only themselves (leave); whoever no longer manages a company no longer has it as their primaryCompany. Its
// e-mail settings: the time zone its e-mails state times in, and whether they carry the product's footer line.
package companies

import "github.com/pocketbase/pocketbase/core"

// Register binds the package's routes and hooks to app.
func Register(app core.App) {
	registerManagers(app)
	registerSettings(app)
}
