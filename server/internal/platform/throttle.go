package platform

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	validation "github.com/pocketbase/ozzo-validation/v4"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
)

// Throttling: PocketBase's rate limiter per client (sign-in, account e-mails, invites and candidate invites), and a
// budget of e-mails per recipient address across every flow that mails a third party (manager invites, candidate
// invites, password resets, verifications, replaced interview links), so nobody can make the product mail one
// address over and over. Every limit is "N/SECONDS" from the environment, with the defaults below; RATE_LIMITS=off
// turns the per-client limits off (the per-address budget stays). Beside them: each manager's hourly cap of
// candidates invited by bulk actions (BULK_CANDIDATES_PER_HOUR), and the per-account sign-in throttle
// (internal/accounts). Every count is kept in the server's memory (the app's store): a restart starts afresh.

var limitDefaults = map[string]string{
	"RATE_LIMIT_AUTH":           "10/60",  // sign-in attempts (password, OTP, OAuth2) per client
	"RATE_LIMIT_ACCOUNT_MAIL":   "5/600",  // password reset, verification and e-mail change requests per client
	"RATE_LIMIT_INVITES":        "30/600", // manager invites and candidate invites created per client
	"MAIL_PER_ADDRESS":          "3/3600", // e-mails to one address from the flows above
	"RATE_LIMIT_ACCOUNT_SIGNIN": "20/900", // failed sign-ins per account (internal/accounts)
	"RATE_LIMIT_BULK_ACTIONS":   "30/600", // bulk decisions, erasures and exports per manager (internal/bulk)
	"RATE_LIMIT_WEBHOOK_TESTS":  "10/60",  // webhook test events a manager sends (internal/webhooks)
	"RATE_LIMIT_MESSAGES":       "30/600", // decision message actions per manager (internal/messages)
	// failed transcripts a manager asks for again (internal/takes): each one is a transcription run, paid for when
	// the engine is a hosted Whisper
	"RATE_LIMIT_TRANSCRIPT_RETRIES": "30/600",
}

var limitPattern = regexp.MustCompile(`^([0-9]{1,9})/([0-9]{1,9})$`)

// ParseLimit reads "N/SECONDS": ok false when malformed or either number is 0.
func ParseLimit(text string) (max int, window time.Duration, ok bool) {
	m := limitPattern.FindStringSubmatch(strings.TrimSpace(text))
	if m == nil {
		return 0, 0, false
	}
	n, _ := strconv.Atoi(m[1])
	s, _ := strconv.Atoi(m[2])
	if n <= 0 || s <= 0 {
		return 0, 0, false
	}
	return n, time.Duration(s) * time.Second, true
}

// Limit is the "N/SECONDS" setting name from the environment; its default when unset, and the default (logged) when
// malformed.
func Limit(app core.App, name string) (max int, window time.Duration) {
	raw := strings.TrimSpace(os.Getenv(name))
	if raw != "" {
		if n, w, ok := ParseLimit(raw); ok {
			return n, w
		}
		app.Logger().Warn("throttle: a limit must read N/SECONDS; the default applies", "name", name, "value", raw)
	}
	n, w, _ := ParseLimit(limitDefaults[name])
	return n, w
}

// RateLimitRules are PocketBase's rate limit rules for the per-client limits (settings.rateLimits.rules).
func RateLimitRules(app core.App) []core.RateLimitRule {
	rule := func(label, name string) core.RateLimitRule {
		n, w := Limit(app, name)
		return core.RateLimitRule{Label: label, Duration: int64(w / time.Second), MaxRequests: n}
	}
	return []core.RateLimitRule{
		rule("*:auth", "RATE_LIMIT_AUTH"),
		rule("*:requestPasswordReset", "RATE_LIMIT_ACCOUNT_MAIL"),
		rule("*:requestVerification", "RATE_LIMIT_ACCOUNT_MAIL"),
		rule("*:requestEmailChange", "RATE_LIMIT_ACCOUNT_MAIL"),
		rule("manager_invites:create", "RATE_LIMIT_INVITES"),
		rule("candidates:create", "RATE_LIMIT_INVITES"),
	}
}

// RateLimitsEnabled is false with RATE_LIMITS=off.
func RateLimitsEnabled() bool {
	return strings.ToLower(strings.TrimSpace(os.Getenv("RATE_LIMITS"))) != "off"
}

// takeFromWindow takes one event from the budget under key (a JSON list of event times in milliseconds, plain data
// in PocketBase's store): false when max events already happened within window (nothing is taken then).
func takeFromWindow(app core.App, key string, max int, window time.Duration) bool {
	now := time.Now().UnixMilli()
	allowed := false
	app.Store().SetFunc(key, func(old any) any {
		var times []int64
		if s, ok := old.(string); ok && s != "" {
			_ = json.Unmarshal([]byte(s), &times)
		}
		recent := times[:0]
		for _, at := range times {
			if now-at < window.Milliseconds() {
				recent = append(recent, at)
			}
		}
		allowed = len(recent) < max
		if allowed {
			recent = append(recent, now)
		}
		if recent == nil {
			recent = []int64{}
		}
		out, _ := json.Marshal(recent)
		return string(out)
	})
	return allowed
}

// TakeMailBudget takes one e-mail to address from its budget of kind; false when the budget is spent. Two budgets
// per address, each MAIL_PER_ADDRESS: "invite" (what managers make the product send: manager and candidate
// invites, replaced interview links) and "account" (what the address's own account asks for: reset, verification,
// e-mail change), so a manager spending an address's invites cannot keep its owner from a password reset.
func TakeMailBudget(app core.App, address, kind string) bool {
	max, window := Limit(app, "MAIL_PER_ADDRESS")
	prefix := "invite:"
	if kind == "account" {
		prefix = "account:"
	}
	return takeFromWindow(app, "screenroomMailsTo:"+prefix+NormalizeEmail(address), max, window)
}

// TooManyMails is the refusal of a mail to an address whose budget is spent.
const TooManyMails = "Too many e-mails were sent to this address. Please try again later."

// RequireMailBudget is a 429 on field when address has no invite e-mail left in its budget.
func RequireMailBudget(app core.App, address, field string) error {
	if TakeMailBudget(app, address, "invite") {
		return nil
	}
	return router.NewApiError(http.StatusTooManyRequests, TooManyMails,
		validation.Errors{field: validation.NewError("validation_too_many_mails", TooManyMails)})
}

// TakeInviteAction takes one invite action from the manager's budget (RATE_LIMIT_INVITES per manager, besides
// PocketBase's limit per client): a single candidate invite is one action, a whole CSV import is one action however
// many rows and requests it takes. False when spent; always true with RATE_LIMITS=off.
func TakeInviteAction(app core.App, userID string) bool {
	if !RateLimitsEnabled() {
		return true
	}
	max, window := Limit(app, "RATE_LIMIT_INVITES")
	return takeFromWindow(app, "screenroomInviteActions:"+userID, max, window)
}

// TooManyInvites is the refusal of an invite action past the manager's budget.
const TooManyInvites = "You have sent too many invites in a short time. Please try again later."

// RequireInviteAction is a 429 when the manager's invite actions are spent.
func RequireInviteAction(app core.App, userID string) error {
	if TakeInviteAction(app, userID) {
		return nil
	}
	return router.NewApiError(http.StatusTooManyRequests, TooManyInvites, nil)
}

// TooManyWebhookTests is the refusal of a webhook test event past the manager's budget.
const TooManyWebhookTests = "You sent many test events in a short time. Wait a minute, then try again."

// RequireWebhookTestBudget is a 429 when the manager userID has sent RATE_LIMIT_WEBHOOK_TESTS test events within its
// window: each one makes the server POST to an address the manager chose, so they are counted like invites. Off with
// RATE_LIMITS=off.
func RequireWebhookTestBudget(app core.App, userID string) error {
	if !RateLimitsEnabled() {
		return nil
	}
	max, window := Limit(app, "RATE_LIMIT_WEBHOOK_TESTS")
	if takeFromWindow(app, "screenroomWebhookTestsBy:"+userID, max, window) {
		return nil
	}
	return router.NewApiError(http.StatusTooManyRequests, TooManyWebhookTests, nil)
}

// TooManyResends is the refusal of a resend past the manager's budget.
const TooManyResends = "You sent many invitations again in a short time. Wait a few minutes, then try again."

// RequireResendBudget is a 429 when the manager userID has resent RATE_LIMIT_INVITES invitations within its
// window: resending reaches candidates already made, so without it one manager could mail every candidate of a
// large job at once, past the limit that creating them met. Off with RATE_LIMITS=off.
func RequireResendBudget(app core.App, userID string) error {
	if !RateLimitsEnabled() {
		return nil
	}
	max, window := Limit(app, "RATE_LIMIT_INVITES")
	if takeFromWindow(app, "screenroomResendsBy:"+userID, max, window) {
		return nil
	}
	return router.NewApiError(http.StatusTooManyRequests, TooManyResends, nil)
}

// TooManyBulkActions is the refusal of a bulk action past the manager's budget.
const TooManyBulkActions = "You started many bulk actions in a short time. Wait a few minutes, then try again."

// RequireBulkAction takes one action from the manager userID's budget of bulk decisions, erasures and exports
// (RATE_LIMIT_BULK_ACTIONS): one bulk request is one action however many candidates it names (their number counts
// against the hourly bulk allowance instead). A bulk resend takes from the resend budget instead, a bulk decision
// message from the decision message budget, as their single routes do. 429 when spent; off with RATE_LIMITS=off.
func RequireBulkAction(app core.App, userID string) error {
	if !RateLimitsEnabled() {
		return nil
	}
	max, window := Limit(app, "RATE_LIMIT_BULK_ACTIONS")
	if takeFromWindow(app, "screenroomBulkActions:"+userID, max, window) {
		return nil
	}
	return router.NewApiError(http.StatusTooManyRequests, TooManyBulkActions, nil)
}

// TooManyMessages is the refusal of a decision message action past the manager's budget.
const TooManyMessages = "You sent many decision messages in a short time. Wait a few minutes, then try again."

// RequireDecisionMessageAction takes one decision message action from the manager userID's budget
// (RATE_LIMIT_MESSAGES): one message sent from the review is one action, and so is one bulk action however many
// candidates it messages (their number counts against the hourly bulk allowance instead). 429 when spent; off with
// RATE_LIMITS=off.
func RequireDecisionMessageAction(app core.App, userID string) error {
	if !RateLimitsEnabled() {
		return nil
	}
	max, window := Limit(app, "RATE_LIMIT_MESSAGES")
	if takeFromWindow(app, "screenroomMessageActions:"+userID, max, window) {
		return nil
	}
	return router.NewApiError(http.StatusTooManyRequests, TooManyMessages, nil)
}

// TooManyTranscriptRetries is the refusal of a transcript retry past the manager's budget.
const TooManyTranscriptRetries = "You asked for many transcripts again in a short time. Wait a few minutes, then try again."

// RequireTranscriptRetry takes one retry from the manager userID's budget of failed transcripts asked for again
// (RATE_LIMIT_TRANSCRIPT_RETRIES). 429 when spent; off with RATE_LIMITS=off.
func RequireTranscriptRetry(app core.App, userID string) error {
	if !RateLimitsEnabled() {
		return nil
	}
	max, window := Limit(app, "RATE_LIMIT_TRANSCRIPT_RETRIES")
	if takeFromWindow(app, "screenroomTranscriptRetries:"+userID, max, window) {
		return nil
	}
	return router.NewApiError(http.StatusTooManyRequests, TooManyTranscriptRetries, nil)
}

const (
	bulkDefaultPerHour   = 2000 // decisions.md: 2,000 candidates an hour a manager
	bulkWindowMinutes    = 60
	bulkCandidatesPrefix = "screenroomBulkCandidates:"
)

// BulkCandidatesPerHour is BULK_CANDIDATES_PER_HOUR: candidates one manager may affect by bulk actions in an hour;
// the default when unset or malformed (logged).
func BulkCandidatesPerHour(app core.App) int {
	raw := strings.TrimSpace(os.Getenv("BULK_CANDIDATES_PER_HOUR"))
	if raw == "" {
		return bulkDefaultPerHour
	}
	if n, err := strconv.Atoi(raw); err == nil && n > 0 && len(raw) <= 9 {
		return n
	}
	app.Logger().Warn("throttle: BULK_CANDIDATES_PER_HOUR must be a positive number; the default applies", "value", raw)
	return bulkDefaultPerHour
}

// BulkAllowance is what a take from the hourly bulk allowance got: Taken may be fewer than wanted (none when
// spent), Remaining is what is left after the take, AvailableAt when the oldest candidates counted leave the window
// (empty when none are counted; ISO 8601).
type BulkAllowance struct {
	Minute      int64  `json:"minute"`
	Taken       int    `json:"taken"`
	Limit       int    `json:"limit"`
	Remaining   int    `json:"remaining"`
	AvailableAt string `json:"availableAt"`
}

// BulkCap is what an answer says is left of a manager's hourly allowance (availableAt null when nothing counts).
type BulkCap struct {
	Limit       int     `json:"limit"`
	Remaining   int     `json:"remaining"`
	AvailableAt *string `json:"availableAt"`
}

// Cap is a's public part, as every bulk answer gives it.
func (a BulkAllowance) Cap() BulkCap {
	c := BulkCap{Limit: a.Limit, Remaining: a.Remaining}
	if a.AvailableAt != "" {
		at := a.AvailableAt
		c.AvailableAt = &at
	}
	return c
}

func bulkCounts(old any) map[string]int {
	counts := map[string]int{}
	if s, ok := old.(string); ok && s != "" {
		_ = json.Unmarshal([]byte(s), &counts)
	}
	return counts
}

func marshalCounts(counts map[string]int) string {
	out, _ := json.Marshal(counts)
	return string(out)
}

// TakeBulkCandidates takes up to wanted candidates (0: only looks) from the manager's hourly bulk allowance: a bulk
// action counts the candidates it affects against BULK_CANDIDATES_PER_HOUR a manager, across imports and jobs, so a
// stolen manager account cannot mail tens of thousands of addresses an hour 1,000 rows at a time. Counts are kept
// per minute on the server's clock for the last hour, so a candidate counts for 60 to 61 minutes. A caller gives
// back what it took and did not use (GiveBackBulkCandidates). Not lifted by RATE_LIMITS=off: it is a cap per
// manager, not a per-client limit.
func TakeBulkCandidates(app core.App, userID string, wanted int) BulkAllowance {
	limit := BulkCandidatesPerHour(app)
	minute := NowMs(app) / 60000
	taken, used := 0, 0
	oldest := int64(-1)
	app.Store().SetFunc(bulkCandidatesPrefix+userID, func(old any) any {
		counts := bulkCounts(old)
		used, oldest = 0, -1
		for key, n := range counts {
			at, err := strconv.ParseInt(key, 10, 64)
			if err != nil || at < minute-bulkWindowMinutes || n <= 0 {
				delete(counts, key)
				continue
			}
			used += n
			if oldest < 0 || at < oldest {
				oldest = at
			}
		}
		taken = max(0, min(wanted, limit-used))
		if taken > 0 {
			counts[strconv.FormatInt(minute, 10)] += taken
			used += taken
			if oldest < 0 || minute < oldest {
				oldest = minute
			}
		}
		return marshalCounts(counts)
	})
	allowance := BulkAllowance{Minute: minute, Taken: taken, Limit: limit, Remaining: max(0, limit-used)}
	if oldest >= 0 {
		allowance.AvailableAt = time.UnixMilli((oldest + bulkWindowMinutes + 1) * 60000).UTC().Format("2006-01-02T15:04:05.000Z")
	}
	return allowance
}

// GiveBackBulkCandidates gives back count candidates taken at minute (TakeBulkCandidates) and not affected.
func GiveBackBulkCandidates(app core.App, userID string, minute int64, count int) {
	if count <= 0 {
		return
	}
	app.Store().SetFunc(bulkCandidatesPrefix+userID, func(old any) any {
		counts := bulkCounts(old)
		key := strconv.FormatInt(minute, 10)
		if left := counts[key] - count; left > 0 {
			counts[key] = left
		} else {
			delete(counts, key)
		}
		return marshalCounts(counts)
	})
}

// BulkCapMessage is the refusal of a CSV import when the manager's hourly allowance is spent: how many can be
// invited, and when.
func BulkCapMessage(a BulkAllowance) string {
	when := ""
	if len(a.AvailableAt) >= 16 {
		when = fmt.Sprintf(" More can be invited from %s UTC.", a.AvailableAt[11:16])
	}
	return fmt.Sprintf("You can invite %d more candidates now: at most %d an hour.%s", a.Remaining, a.Limit, when)
}

// BulkActionCapMessage is the refusal of a bulk action on candidates (decide, resend, message, export, delete) when
// the manager's hourly allowance is spent: how many more candidates it may act on, and when.
func BulkActionCapMessage(a BulkAllowance) string {
	when := ""
	if len(a.AvailableAt) >= 16 {
		when = fmt.Sprintf(" More from %s UTC.", a.AvailableAt[11:16])
	}
	return fmt.Sprintf("You can act on %d more candidates now: at most %d an hour by bulk actions.%s", a.Remaining, a.Limit, when)
}
