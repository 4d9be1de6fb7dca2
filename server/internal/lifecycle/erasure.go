package lifecycle

import (
	"screenroom/server/internal/platform"

	"context"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// Erasure (decisions.md "Data lifetime"): a candidate removed from every store.
//   - The candidate row, and through PocketBase's cascades everything that hangs off it: answers with their video and
//     text records (files included: PocketBase removes a deleted record's storage folder, local disk or S3, once the
//     transaction commits), transcripts and segments (fields of video_answers), ratings, comments, share links,
//     decision messages, webhook deliveries, question progress and staged takes (whose parts, outside PocketBase's
//     storage, go with their row). The search index (answer_search, answer_search_docs) is kept by SQLite triggers on
//     video_answers and text_answers (migration 1733100000_answer_search.js), so it follows the cascade. The
//     decision, rating average and accommodations are fields of the candidate row.
//   - The outgoing mail about them (mail_queue): every queued e-mail that names them (mail_queue.candidate, a
//     cascade), and an older e-mail no candidate was matched to that carries their interview key or record id.
//     Another candidate's e-mails to the same address (another job) name the other candidacy and stay.
//   - PocketBase's request log (the auxiliary database) lines whose URL or data hold their id or key, after the
//     transaction (a log line is not the product's data, and the log database is not the main one).
//   - An audit entry, in the same transaction, written by the candidate's delete itself (candidate_removal_audit.go),
//     with the action and actor the caller gives: a manager's erase, retention, or the candidate's own withdrawal
//     (Withdraw, called by the interview's withdraw route).
//
// Everything but the log lines commits together or not at all. The `?deleteAnswers=true` confirmation of the records
// API's delete does not apply here: the erase route asks its own confirmation in the SPA.

// erased is what an erasure removed: the candidate's answers, and how many of them were videos.
type erased struct{ answers, videos int }

// POST /api/screenroom/candidates/{id}/erase, 'Erase candidate' on the review. For the managers of the candidate's
// company only (the candidates collection's list rule, as the review route decides); anyone else, an unknown
// candidate and an unverified account get the same 404. 200 { answers, videos }.
func registerErasure(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.POST("/api/screenroom/candidates/{id}/erase", eraseRoute)
		return se.Next()
	})
}

func eraseRoute(e *core.RequestEvent) error {
	info, candidate, _, ok := platform.ManagedCandidate(e, true)
	if !ok {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	result, err := EraseByManager(e.App, candidate.Id, info.Auth.Id)
	if err != nil {
		return err
	}
	if result == nil {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}
	e.Response.Header().Set("Cache-Control", "no-store")
	return e.JSON(200, map[string]int{"answers": result.Answers, "videos": result.Videos})
}

// Erased is what an erasure removed: the candidate's answers, and how many of them were videos.
type Erased struct{ Answers, Videos int }

// EraseByManager erases the candidate candidateID as manager managerID's act: the erase route's erasure, and each
// candidate's of a bulk delete, its audit entry the action "erase" by that manager. Access is the caller's to
// decide. nil, nil when there is no such candidate (erased in between).
func EraseByManager(app core.App, candidateID, managerID string) (*Erased, error) {
	result, err := eraseCandidate(app, candidateID, candidateRemoval{action: "erase", kind: actorManager, actor: managerID}, nil)
	if err != nil || result == nil {
		return nil, err
	}
	return &Erased{Answers: result.answers, Videos: result.videos}, nil
}

// Withdraw erases the candidate candidateID as their own act (the interview's withdraw route): the erasure a
// manager's is, its audit entry the action "withdraw" by the candidate, without an actor id. within runs in the
// erasure's transaction once the candidate's row is gone (it is given the record as it was), so what the withdrawal
// writes beside the erasure (the withdrawn link, the managers' notices) commits with it or not at all. nil, nil when
// there is no such candidate (a second withdrawal).
func Withdraw(app core.App, candidateID string, within func(tx core.App, candidate *core.Record) error) (*Erased, error) {
	result, err := eraseCandidate(app, candidateID, candidateRemoval{action: "withdraw", kind: actorCandidate}, within)
	if err != nil || result == nil {
		return nil, err
	}
	return &Erased{Answers: result.answers, Videos: result.videos}, nil
}

// eraseCandidate erases candidate candidateID, its audit entry saying how and by whom (removal: "erase" by a
// manager, "retention_erase" by retention, "withdraw" by the candidate), then runs within (when given) in the same
// transaction. nil, nil when there is no such candidate.
func eraseCandidate(app core.App, candidateID string, removal candidateRemoval, within func(tx core.App, candidate *core.Record) error) (*erased, error) {
	var result *erased
	secret := ""
	err := app.RunInTransaction(func(txApp core.App) error {
		candidate := platform.FindByIdOrNil(txApp, "candidates", candidateID)
		if candidate == nil {
			return nil
		}
		secret = candidate.GetString("secret")

		var counts [2]int
		for i, sql := range []string{
			"SELECT count(*) FROM answers WHERE candidate = {:c}",
			"SELECT count(*) FROM video_answers v JOIN answers a ON a.id = v.answer WHERE a.candidate = {:c}",
		} {
			if err := txApp.DB().NewQuery(sql).Bind(dbx.Params{"c": candidate.Id}).Row(&counts[i]); err != nil {
				return err
			}
		}

		// their e-mails go with them by the relation's cascade; the e-mails queued before mail_queue.candidate
		// existed that its migration could not match to anyone (1733200300_mail_queue_candidate.js) go here, by
		// their key or id in the text (an empty key would match every e-mail: only a key that is set)
		byKey := ""
		if secret != "" {
			byKey = "html ~ {:secret} || text ~ {:secret} || "
		}
		unmatched, err := txApp.FindRecordsByFilter(
			"mail_queue",
			"candidate = '' && ("+byKey+"subject ~ {:id} || html ~ {:id} || text ~ {:id})",
			"", 0, 0,
			dbx.Params{"secret": secret, "id": candidate.Id},
		)
		if err != nil {
			return err
		}
		for _, mail := range unmatched {
			if err := txApp.Delete(mail); err != nil {
				return err
			}
		}

		// the candidate's delete writes its one audit entry, in this transaction
		if err := txApp.DeleteWithContext(withCandidateRemoval(context.Background(), removal), candidate); err != nil {
			return err
		}
		if within != nil {
			if err := within(txApp, candidate); err != nil {
				return err
			}
		}
		result = &erased{answers: counts[0], videos: counts[1]}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if result != nil {
		forgetLogLines(app, candidateID, secret)
	}
	return result, nil
}

// forgetLogLines removes PocketBase's request log lines that name the candidate's id or key; a failure is logged,
// never returned (the erasure has committed).
func forgetLogLines(app core.App, candidateID, secret string) {
	for _, needle := range []string{candidateID, secret} {
		if needle == "" {
			continue
		}
		_, err := app.AuxDB().
			NewQuery("DELETE FROM _logs WHERE instr(data, {:needle}) > 0 OR instr(message, {:needle}) > 0").
			Bind(dbx.Params{"needle": needle}).
			Execute()
		if err != nil {
			app.Logger().Warn("erasure: the request log could not be cleaned", "error", err.Error())
			return
		}
	}
}
