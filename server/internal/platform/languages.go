package platform

import (
	"slices"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/core"
)

// The languages a candidate meets the product in (screens, e-mails, pages): the select values of jobs.language and
// candidates.language (migration 1733200800_candidate_languages.js) and the SPA's list
// (src/lib/locales.ts). English is what an empty choice reads as.

// Languages are the languages offered, in the SPA's order.
var Languages = []string{"en", "de", "fr", "es", "nl", "pt", "it", "pl", "ar"}

// DefaultLanguage is the language of a job that names none.
const DefaultLanguage = "en"

// IsLanguage reports whether value is one of Languages.
func IsLanguage(value string) bool {
	return slices.Contains(Languages, value)
}

// IsRightToLeft reports whether language is written right to left.
func IsRightToLeft(language string) bool {
	return language == "ar"
}

// JobLanguage is the job's language, DefaultLanguage when it names none (or one no longer offered).
func JobLanguage(job *core.Record) string {
	if job != nil {
		if language := job.GetString("language"); IsLanguage(language) {
			return language
		}
	}
	return DefaultLanguage
}

// CandidateLanguage is the language everything sent to the candidate is in: their own choice on the interview
// screens (candidates.language), else their job's.
func CandidateLanguage(candidate, job *core.Record) string {
	if candidate != nil {
		if language := candidate.GetString("language"); IsLanguage(language) {
			return language
		}
	}
	return JobLanguage(job)
}

// CompanyZone is the time zone the company's e-mails state times in (companies.timeZone, an IANA name): UTC when
// it names none, or one this server's zone database does not know (the company settings refuse such a name; one
// saved before that check, or removed from a later database, still sends its e-mails).
func CompanyZone(company *core.Record) *time.Location {
	if company == nil {
		return time.UTC
	}
	return Zone(company.GetString("timeZone"))
}

// zones keeps each zone read once: a reminders run mails hundreds of candidates of the same few companies.
var zones sync.Map

// Zone is the IANA time zone name, UTC for an empty or unknown name ("Local", the server's own, is not a name a
// company can mean).
func Zone(name string) *time.Location {
	if name == "" || name == "Local" {
		return time.UTC
	}
	if zone, ok := zones.Load(name); ok {
		return zone.(*time.Location)
	}
	zone, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	zones.Store(name, zone)
	return zone
}
