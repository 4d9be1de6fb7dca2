package review

import (
	"net/http"
	"screenroom/server/internal/platform"
	"slices"
	"time"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// The managers' share-link routes: making a link, revoking one, the company's live links (share_links.go).

const resourceNotFound = "The requested resource wasn't found."

func createShareLinkRoute(e *core.RequestEvent) error {
	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	user := platform.RequestUser(e)
	if user == nil {
		return e.NotFoundError(resourceNotFound, nil)
	}
	body := info.Body
	var candidate *core.Record
	if id, ok := body["candidate"].(string); ok {
		candidate = platform.FindByIdOrNil(e.App, "candidates", id)
	}
	// the candidates' list rule: the managers of the job's company (the view rule also lets the candidate read itself)
	if candidate == nil {
		return e.NotFoundError(resourceNotFound, nil)
	}
	if ok, _ := e.App.CanAccessRecord(candidate, info, candidate.Collection().ListRule); !ok {
		return e.NotFoundError(resourceNotFound, nil)
	}

	days := float64(defaultShareLinkExpiryDays)
	if value, given := body["expiresInDays"]; given && value != nil && value != "" {
		days = platform.JSNumber(value)
		if !slices.Contains(shareLinkExpiryDays, days) {
			return platform.FieldError("expiresInDays", "Choose 1, 7, 14 or 30 days.", "validation_invalid_value")
		}
	}
	includeFeedback := false
	if value, given := body["includeFeedback"]; given && value != nil {
		switch value {
		case true, "true":
			includeFeedback = true
		case false, "false", "":
		default:
			return platform.FieldError("includeFeedback", "Include ratings and comments, or not.", "validation_invalid_value")
		}
	}

	collection, err := e.App.FindCachedCollectionByNameOrId("share_links")
	if err != nil {
		return err
	}
	token := newShareToken()
	link := core.NewRecord(collection)
	link.Set("candidate", candidate.Id)
	link.Set("createdBy", user.Id)
	link.Set("tokenHash", hashShareToken(token))
	link.Set("expiresAt", platform.DBTime(time.Now().Add(time.Duration(days)*24*time.Hour)))
	link.Set("includeFeedback", includeFeedback)
	if err := e.App.Save(link); err != nil {
		return err
	}

	e.Response.Header().Set("Cache-Control", "no-store")
	return e.JSON(http.StatusOK, map[string]any{"link": link, "token": token, "url": platform.AppURL(e.App) + "/shared/" + token})
}

func revokeShareLinkRoute(e *core.RequestEvent) error {
	info, err := e.RequestInfo()
	if err != nil {
		return err
	}
	user := platform.RequestUser(e)
	if user == nil {
		return e.NotFoundError(resourceNotFound, nil)
	}
	found := platform.FindByIdOrNil(e.App, "share_links", e.Request.PathValue("id"))
	if found == nil {
		return e.NotFoundError(resourceNotFound, nil)
	}
	if ok, _ := e.App.CanAccessRecord(found, info, found.Collection().ListRule); !ok {
		return e.NotFoundError(resourceNotFound, nil)
	}
	if found.GetString("createdBy") != user.Id {
		company := linkCompany(e.App, found)
		if company == nil || company.GetString("owner") != user.Id {
			return e.ForbiddenError("Only the owner of the company can revoke a link another manager made.", nil)
		}
	}

	link := found
	err = e.App.RunInTransaction(func(txApp core.App) error {
		current, err := txApp.FindRecordById("share_links", found.Id)
		if err != nil {
			return err
		}
		link = current
		if link.GetString("revokedAt") != "" {
			return nil // already revoked: kept as it was
		}
		link.Set("revokedAt", platform.DBTime(time.Now()))
		link.Set("revokedBy", user.Id)
		return txApp.Save(link)
	})
	if err != nil {
		return err
	}
	return e.JSON(http.StatusOK, link)
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
		return e.NotFoundError(resourceNotFound, nil)
	}
	company, err := e.App.FindRecordById("companies", companyID)
	if err != nil {
		return e.NotFoundError(resourceNotFound, nil)
	}
	links, err := liveShareLinks(e.App, company)
	if err != nil {
		return err
	}
	e.Response.Header().Set("Cache-Control", "no-store")
	return e.JSON(http.StatusOK, map[string]any{"items": links})
}

// liveShareLinks are the company's links that still open (linkRefusal), newest first.
func liveShareLinks(app core.App, company *core.Record) ([]companyShareLink, error) {
	var rows []struct {
		ID                 string `db:"id"`
		Created            string `db:"created"`
		ExpiresAt          string `db:"expiresAt"`
		RevokedAt          string `db:"revokedAt"`
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
		`SELECT s.id, s.created, COALESCE(s.expiresAt, '') AS expiresAt, COALESCE(s.revokedAt, '') AS revokedAt,
		   s.includeFeedback, COALESCE(s.lastOpenedAt, '') AS lastOpenedAt,
		   c.id AS candidateId, c.email AS candidateEmail, COALESCE(c.firstName, '') AS candidateFirstName,
		   COALESCE(c.lastName, '') AS candidateLastName, j.id AS jobId, j.title AS jobTitle,
		   u.id AS makerId, u.email AS makerEmail, COALESCE(u.firstName, '') AS makerFirstName,
		   COALESCE(u.lastName, '') AS makerLastName
		 FROM share_links s
		 JOIN candidates c ON c.id = s.candidate
		 JOIN jobs j ON j.id = c.job
		 JOIN users u ON u.id = s.createdBy
		 WHERE j.company = {:company}
		 ORDER BY s.created DESC, s.id DESC`,
	).Bind(dbx.Params{"company": company.Id}).All(&rows)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	links := []companyShareLink{}
	for _, row := range rows {
		if linkRefusal(row.RevokedAt, row.ExpiresAt, row.MakerID, company, now) != nil {
			continue
		}
		links = append(links, companyShareLink{
			ID:              row.ID,
			Created:         row.Created,
			ExpiresAt:       row.ExpiresAt,
			IncludeFeedback: row.IncludeFeedback,
			LastOpenedAt:    row.LastOpenedAt,
			Candidate:       shareLinkPerson{ID: row.CandidateID, Email: row.CandidateEmail, FirstName: row.CandidateFirstName, LastName: row.CandidateLastName},
			Job:             shareLinkJob{ID: row.JobID, Title: row.JobTitle},
			CreatedBy:       shareLinkPerson{ID: row.MakerID, Email: row.MakerEmail, FirstName: row.MakerFirstName, LastName: row.MakerLastName},
		})
	}
	return links, nil
}
