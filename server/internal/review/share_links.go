package review

// Share links: a read-only link to one candidate's review, for a colleague without an account. The collection
// share_links (pb_migrations/1732900000_review_workflow.js) is listed and viewed by the managers of the candidate's
// company and written by nobody through the records or batch API (create/update/delete rules null); the routes here
// write it.
//
// A link's token is 43 characters of [A-Za-z0-9] from crypto/rand: 43 × log2(62) ≈ 256 random bits. Only its
// SHA-256 (hex) is stored, in the hidden `tokenHash` (decisions.md: "Share-link tokens carry at least 128 random
// bits, are stored hashed, and no filter reaches them"); the token itself is shown once, in the create route's answer.
//
// - POST /api/screenroom/share-links {candidate, expiresInDays: 1 | 7 | 14 | 30 (default 14), includeFeedback}: a
//   manager of the candidate's company makes a link. 200 {link, token, url}. Anyone else, and an unknown candidate,
//   gets the same 404, before the body is read.
// - POST /api/screenroom/share-links/{id}/revoke: the company's owner revokes any of its links, another manager of the
//   company only the links they made (revokedAt, revokedBy); a link already revoked stays as it was (who revoked it
//   first, and when). 200 the link. A manager of the company revoking another's link: 403, nothing written. Anyone
//   else: 404. (A removed manager's links are revoked by the server at removal: share_links_revoke.go.)
// - GET /api/screenroom/companies/{id}/share-links: the company's live links (those that still open, linkRefusal),
//   newest first, with their candidate, job, maker, creation, expiry and whether they include ratings and comments:
//   the company settings' 'Share links' list. For the managers of the company (the share_links list rule already lets
//   each of them read every link of the company); anyone else, and an unknown id, gets the same 404.
// - GET /api/screenroom/shared/{token}: anyone holding the token, no account: what the shared page shows
//   (share_links_shared.go), and the link's lastOpenedAt. 404 'This link is not valid.' (malformed or unknown), 410
//   'This link has expired.' or 'This link was revoked.'. It reads no session and signs nobody in.
// - GET /api/screenroom/shared/{token}/videos/{videoAnswerId}: the video file of one of the link's candidate's
//   answers, streamed through the link's authority (the file field stays protected), with Range requests (seeking).
//
// Dates are the system clock's, not the test clock's: a link's expiry is a real duration.

import (
	"net/http"
	"regexp"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/router"
	"github.com/pocketbase/pocketbase/tools/security"
)

const shareTokenLength = 43

var shareTokenPattern = regexp.MustCompile(`^[A-Za-z0-9]{43}$`)

// shareLinkExpiryDays are the expiries a manager chooses from; defaultShareLinkExpiryDays when the request names none.
var shareLinkExpiryDays = []float64{1, 7, 14, 30}

const defaultShareLinkExpiryDays = 14

const (
	shareLinkNotValid = "This link is not valid."
	shareLinkExpired  = "This link has expired."
	shareLinkRevoked  = "This link was revoked."
)

func registerShareLinks(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/share-links", createShareLinkRoute)
		se.Router.POST("/api/screenroom/share-links/{id}/revoke", revokeShareLinkRoute)
		se.Router.GET("/api/screenroom/companies/{id}/share-links", companyShareLinksRoute)
		se.Router.GET("/api/screenroom/shared/{token}", sharedViewRoute)
		se.Router.GET("/api/screenroom/shared/{token}/videos/{videoAnswerId}", sharedVideoRoute)
		return se.Next()
	})
	registerShareLinkRevoke(app)
}

func newShareToken() string {
	return security.RandomString(shareTokenLength)
}

func hashShareToken(token string) string {
	return security.SHA256(token)
}

// linkRefusal is why a link does not open, or nil when it does: 410 revoked when a manager revoked it or its maker no
// longer manages company (the company of its candidate's job; removing a manager revokes their links, and this holds
// even where that did not happen), else 410 expired once its expiry has passed (or cannot be read). Revoked first: it
// is a manager's act, and a revoked link stays revoked whatever its date.
func linkRefusal(revokedAt, expiresAt, maker string, company *core.Record, now time.Time) *router.ApiError {
	if revokedAt != "" || !platform.IsManager(company, maker) {
		return router.NewApiError(http.StatusGone, shareLinkRevoked, nil)
	}
	expiry, ok := platform.ParseDBTime(expiresAt)
	if !ok || !expiry.After(now) {
		return router.NewApiError(http.StatusGone, shareLinkExpired, nil)
	}
	return nil
}

// linkCompany is the company of the link's candidate's job, or nil.
func linkCompany(app core.App, link *core.Record) *core.Record {
	candidate := platform.FindByIdOrNil(app, "candidates", link.GetString("candidate"))
	if candidate == nil {
		return nil
	}
	job := platform.FindByIdOrNil(app, "jobs", candidate.GetString("job"))
	if job == nil {
		return nil
	}
	return platform.FindByIdOrNil(app, "companies", job.GetString("company"))
}

// linkOfToken is the link a token opens, or the error to answer: 404 for a malformed or unknown token (the same body
// either way: nothing about which tokens exist), else linkRefusal's.
func linkOfToken(app core.App, token string) (*core.Record, error) {
	if !shareTokenPattern.MatchString(token) {
		return nil, router.NewNotFoundError(shareLinkNotValid, nil)
	}
	link := platform.FindFirstOrNil(app, "share_links", "tokenHash = {:hash}", dbx.Params{"hash": hashShareToken(token)})
	if link == nil {
		return nil, router.NewNotFoundError(shareLinkNotValid, nil)
	}
	refusal := linkRefusal(link.GetString("revokedAt"), link.GetString("expiresAt"), link.GetString("createdBy"), linkCompany(app, link), time.Now())
	if refusal != nil {
		return nil, refusal
	}
	return link, nil
}
