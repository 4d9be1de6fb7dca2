package review

// A share link does not outlive its maker's place in the company (decisions.md: "Share links of a removed manager are
// revoked at removal and stay revoked if they are added again; the owner's list of live links is in the company
// settings"):
//   - whenever a company's managers list loses someone, however it is saved (the records API, a batch, a manager
//     leaving by themselves, a superuser, a hook, a user's deletion), every share link they made for a candidate of
//     that company and not revoked yet is revoked in the same transaction as the save that removed them. revokedAt
//     stays set, so being added again revives nothing; revokedBy stays empty: the server revoked it, not a manager.
//     The shared routes also refuse a link whose maker no longer manages its company (pb_hooks/lib/share-links.js).
//   - GET /api/screenroom/companies/{id}/share-links: the company's live links (neither revoked nor expired, their
//     maker still one of its managers), newest first, with their candidate, job, maker, creation, expiry and whether
//     they include ratings and comments: the company settings' 'Share links' list. For the managers of the company
//     (the share_links list rule already lets each of them read every link of the company); anyone else, and an
//     unknown id, gets the same 404. Revoking stays the JS route's (pb_hooks/share-links.pb.js): the owner revokes any
//     link of the company, another manager only their own.

import (
	"screenroom/server/internal/platform"

	"net/http"
	"slices"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/types"
)

func registerShareLinkRevoke(app core.App) {
	app.OnRecordUpdate("companies").BindFunc(revokeLinksOfRemovedManagers)
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/companies/{id}/share-links", companyShareLinksRoute)
		return se.Next()
	})
}

// removedManagers are the ids in the record's stored managers that the record being saved no longer has.
func removedManagers(record *core.Record) []string {
	after := record.GetStringSlice("managers")
	var removed []string
	for _, id := range record.Original().GetStringSlice("managers") {
		if id != "" && !slices.Contains(after, id) {
			removed = append(removed, id)
		}
	}
	return removed
}

// revokeLinksOfRemovedManagers runs the company's save and the revocation in one transaction (the caller's, when it
// already runs in one). The event's app is the transaction's only while the save runs: the hooks after a successful
// save, which PocketBase runs with the event's app, get the app they were saved with.
func revokeLinksOfRemovedManagers(e *core.RecordEvent) error {
	removed := removedManagers(e.Record)
	if len(removed) == 0 {
		return e.Next()
	}
	outer := e.App
	err := outer.RunInTransaction(func(txApp core.App) error {
		e.App = txApp
		if err := e.Next(); err != nil {
			return err
		}
		return revokeShareLinksOf(txApp, e.Record.Id, removed)
	})
	e.App = outer
	return err
}

// revokeShareLinksOf revokes every link one of makers made for a candidate of the company and not revoked yet,
// expired ones too, through the records layer (so the managers' lists get their realtime update).
func revokeShareLinksOf(app core.App, companyID string, makers []string) error {
	ids := make([]any, len(makers))
	for i, id := range makers {
		ids[i] = id
	}
	var links []*core.Record
	err := app.RecordQuery("share_links").
		InnerJoin("candidates", dbx.NewExp("candidates.id = share_links.candidate")).
		InnerJoin("jobs", dbx.NewExp("jobs.id = candidates.job")).
		AndWhere(dbx.HashExp{"jobs.company": companyID}).
		AndWhere(dbx.In("share_links.createdBy", ids...)).
		AndWhere(dbx.NewExp("COALESCE(share_links.revokedAt, '') = ''")).
		All(&links)
	if err != nil {
		return err
	}
	now := types.NowDateTime()
	for _, link := range links {
		link.Set("revokedAt", now)
		if err := app.Save(link); err != nil {
			return err
		}
	}
	return nil
}

// companyShareLink is one row of the company settings' list.
type companyShareLink struct {
	ID              string          `json:"id"`
	Created         string          `json:"created"`
	ExpiresAt       string          `json:"expiresAt"`
	IncludeFeedback bool            `json:"includeFeedback"`
	LastOpenedAt    string          `json:"lastOpenedAt"`
	Candidate       shareLinkPerson `json:"candidate"`
	Job             shareLinkJob    `json:"job"`
	CreatedBy       shareLinkPerson `json:"createdBy"`
}

type shareLinkPerson struct {
	ID        string `json:"id"`
	Email     string `json:"email"`
	FirstName string `json:"firstName"`
	LastName  string `json:"lastName"`
}

type shareLinkJob struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

func companyShareLinksRoute(e *core.RequestEvent) error {
	companyID := e.Request.PathValue("id")
	if !platform.ManagesCompany(e.App, companyID, platform.RequestUserID(e)) {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	links, err := liveShareLinks(e.App, companyID)
	if err != nil {
		return err
	}
	e.Response.Header().Set("Cache-Control", "no-store")
	return e.JSON(http.StatusOK, map[string]any{"items": links})
}

// liveShareLinks are the company's links that still open: not revoked, not expired, made by one of its managers.
func liveShareLinks(app core.App, companyID string) ([]companyShareLink, error) {
	var rows []struct {
		ID                 string `db:"id"`
		Created            string `db:"created"`
		ExpiresAt          string `db:"expiresAt"`
		IncludeFeedback    bool   `db:"includeFeedback"`
		LastOpenedAt       string `db:"lastOpenedAt"`
		CandidateID        string `db:"candidateId"`
		CandidateEmail     string `db:"candidateEmail"`
		CandidateFirstName string `db:"candidateFirstName"`
		CandidateLastName  string `db:"candidateLastName"`
		JobID              string `db:"jobId"`
		JobTitle           string `db:"jobTitle"`
		MakerID            string `db:"makerId"`
		MakerEmail         string `db:"makerEmail"`
		MakerFirstName     string `db:"makerFirstName"`
		MakerLastName      string `db:"makerLastName"`
	}
	err := app.DB().NewQuery(
		`SELECT s.id, s.created, s.expiresAt, s.includeFeedback, COALESCE(s.lastOpenedAt, '') AS lastOpenedAt,
		   c.id AS candidateId, c.email AS candidateEmail, COALESCE(c.firstName, '') AS candidateFirstName,
		   COALESCE(c.lastName, '') AS candidateLastName, j.id AS jobId, j.title AS jobTitle,
		   u.id AS makerId, u.email AS makerEmail, COALESCE(u.firstName, '') AS makerFirstName,
		   COALESCE(u.lastName, '') AS makerLastName
		 FROM share_links s
		 JOIN candidates c ON c.id = s.candidate
		 JOIN jobs j ON j.id = c.job
		 JOIN companies co ON co.id = j.company
		 JOIN users u ON u.id = s.createdBy
		 WHERE j.company = {:company} AND COALESCE(s.revokedAt, '') = '' AND s.expiresAt > {:now}
		   AND EXISTS (SELECT 1 FROM json_each(co.managers) m WHERE m.value = s.createdBy)
		 ORDER BY s.created DESC, s.id DESC`,
	).Bind(dbx.Params{"company": companyID, "now": types.NowDateTime().String()}).All(&rows)
	if err != nil {
		return nil, err
	}
	links := make([]companyShareLink, len(rows))
	for i, row := range rows {
		links[i] = companyShareLink{
			ID:              row.ID,
			Created:         row.Created,
			ExpiresAt:       row.ExpiresAt,
			IncludeFeedback: row.IncludeFeedback,
			LastOpenedAt:    row.LastOpenedAt,
			Candidate:       shareLinkPerson{ID: row.CandidateID, Email: row.CandidateEmail, FirstName: row.CandidateFirstName, LastName: row.CandidateLastName},
			Job:             shareLinkJob{ID: row.JobID, Title: row.JobTitle},
			CreatedBy:       shareLinkPerson{ID: row.MakerID, Email: row.MakerEmail, FirstName: row.MakerFirstName, LastName: row.MakerLastName},
		}
	}
	return links, nil
}
