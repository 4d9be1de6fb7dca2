package companies

import (
	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
)

// timeZoneMessage is what a company saving a zone the server does not know is told, on its timeZone field.
const timeZoneMessage = "Choose a time zone from the list."

// A company's e-mail settings: the zone its e-mails state times in (timeZone, an IANA name; empty is UTC) and
// whether they leave out the product's footer line (mailFooterOff, a bool PocketBase checks itself). Who may set
// them is the companies update rule: its managers.
//
// The zone is checked on every save, the records API's and the server's own alike, so a name the e-mails would
// quietly read as UTC is never stored; the answer names the field, for the settings form to show under the select.
// Only a changed value is judged: a stored name that a later zone database dropped does not block saving the rest.
func registerSettings(app core.App) {
	app.OnRecordValidate("companies").BindFunc(func(e *core.RecordEvent) error {
		zone := e.Record.GetString("timeZone")
		if original := e.Record.Original(); !e.Record.IsNew() && original != nil && original.GetString("timeZone") == zone {
			return e.Next()
		}
		if !knownTimeZone(zone) {
			return platform.FieldError("timeZone", timeZoneMessage, "validation_time_zone")
		}
		return e.Next()
	})
}

// knownTimeZone reports whether name is empty (UTC) or the zone the e-mails will state times in (platform.Zone),
// which reads "Local", an unknown name, or one with stray spaces as UTC instead.
func knownTimeZone(name string) bool {
	return name == "" || platform.Zone(name).String() == name
}
