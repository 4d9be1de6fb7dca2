package mail

import (
	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

// InterviewMail is the interview e-mail to candidate (business rule 6), with its link: again for a link sent anew,
// resent for the same invitation sent again by a manager. One content for the single invite, the CSV import, a
// replaced link and a resend, in the candidate's language; it states the deadline when there is one (in the
// company's time zone). Candidate is set, so the e-mail goes with the candidate.
func InterviewMail(app core.App, candidate *core.Record, again, resent bool) (Message, error) {
	ctx, err := interviewMailContext(app, candidate)
	if err != nil {
		return Message{}, err
	}
	return interviewLetter(ctx, candidate, again, resent)
}

func interviewLetter(ctx mailContext, candidate *core.Record, again, resent bool) (Message, error) {
	say := ctx.locale.Say
	paragraphs := []Value{ctx.hello(candidate)}
	if again {
		paragraphs = append(paragraphs, say("interview.again", ctx.names()))
	} else {
		if resent {
			paragraphs = append(paragraphs, say("interview.resent", nil))
		}
		paragraphs = append(paragraphs, say("interview.invite", ctx.names()), say("interview.ownTime", nil))
	}
	paragraphs = append(paragraphs, Link(ctx.Link))
	if deadline, ok := platform.ParseDBTime(candidate.GetString("deadline")); ok {
		paragraphs = append(paragraphs, say("interview.deadline", map[string]Value{"deadline": ctx.deadline(deadline)}))
	}
	paragraphs = append(paragraphs, say("interview.resume", nil))
	return ctx.write(candidate.GetString("email"), ctx.subject("interview.subject"), "common.closingGoodLuck", candidate.Id, paragraphs...)
}

// SendInterviewMail queues the interview e-mail (single invites, CSV imports and resends alike); a failure to queue
// is logged, never fails the request that caused it.
func SendInterviewMail(app core.App, candidate *core.Record, again, resent bool) {
	message, err := InterviewMail(app, candidate, again, resent)
	if err == nil {
		_, err = Queue(app, message)
	}
	if err != nil {
		app.Logger().Error("queueing the interview mail failed", "candidate", candidate.Id, "error", err.Error())
	}
}
