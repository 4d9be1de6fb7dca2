package analytics

import (
	"cmp"
	"database/sql"
	"encoding/json"
	"slices"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// What each job's figures are made of, computed from the rows the other domains store (decisions.md, the analytics
// ruling):
//   - invited: every candidate of the job (a manager's withdrawal keeps them; a candidate's own withdrawal erases them);
//   - link opened: linkOpenedAt, the first read of the interview link;
//   - agreed: consentedAt, 'I agree' on the start screen;
//   - started: questionOpenedAt, the first question opened;
//   - completed: the status (every question of the job answered);
//   - decided: a decision (advance, hold, reject).
// The stages are counted as reached: a candidate who completed also opened the link, agreed and started, whatever a
// stamp from before the stamps existed says, so each stage holds the ones after it (decided stands apart: a
// candidate may be put on hold before finishing).
// Per question of the job, in the job's order: reached (opened or answered it), answered, and stopped (started and not
// completed, and this is the first question of the job's order they have not answered: where the interview resumes).
// Completed candidates reached and answered every question. Times to complete run from the first question opened,
// and from the invite, to the completion, for the completed candidates that have both stamps. Reminded candidates
// got at least one of the two reminders before their deadline; "completed after" counts those whose completion came
// after their first reminder.

type reminderCounts struct {
	candidates, completed, completedAfter int
}

type questionCounts struct {
	reached, answered, stopped int
}

// inviteCell: the candidates invited in one minute (since the epoch), and how many of them completed
type inviteCell struct {
	minute             int64
	invited, completed int
}

type funnelCounts struct {
	invited, linkOpened, agreed, started, completed int
	advance, hold, reject                           int
}

// jobFigures are one job's figures, as computed when its version (analytics_versions) was `version`.
type jobFigures struct {
	version int64
	// the server's time they were computed at: they count every write committed before it
	computedAt  time.Time
	questions   []string
	funnel      funnelCounts
	byQuestion  map[string]*questionCounts
	reminded    reminderCounts
	notReminded reminderCounts
	// milliseconds, ascending
	startToComplete, inviteToComplete []int64
	// ascending by minute: weeks are cut in the company's time zone when they are read
	invites []inviteCell
}

func newJobFigures(version int64, questions []string) *jobFigures {
	f := &jobFigures{version: version, questions: questions, byQuestion: make(map[string]*questionCounts, len(questions))}
	for _, q := range questions {
		f.byQuestion[q] = &questionCounts{}
	}
	return f
}

// jobRow is a job whose figures are wanted: its id, its questions (JSON, as stored) and its version.
type jobRow struct {
	ID        string `db:"id"`
	Company   string `db:"company"`
	Title     string `db:"title"`
	Questions string `db:"questions"`
	Archived  bool   `db:"archived"`
	ClosedAt  string `db:"closedAt"`
	Version   int64  `db:"version"`
}

func (j jobRow) questionIDs() []string {
	var ids []string
	if err := json.Unmarshal([]byte(j.Questions), &ids); err != nil {
		return nil
	}
	return ids
}

const jobsSelect = `SELECT j.id, j.company, j.title, j.questions, j.archived, COALESCE(j.closedAt, '') AS closedAt, COALESCE(v.version, 0) AS version
	FROM jobs j LEFT JOIN analytics_versions v ON v.job = j.id`

// companyJobs is every job of the company, oldest first, with its version.
func companyJobs(app core.App, companyID string) ([]jobRow, error) {
	var rows []jobRow
	err := app.DB().NewQuery(jobsSelect + " WHERE j.company = {:company} ORDER BY j.created, j.id").
		Bind(dbx.Params{"company": companyID}).All(&rows)
	return rows, err
}

// oneJob is the job with its version; ok false when there is none.
func oneJob(app core.App, jobID string) (jobRow, bool) {
	var row jobRow
	err := app.DB().NewQuery(jobsSelect + " WHERE j.id = {:job}").Bind(dbx.Params{"job": jobID}).One(&row)
	return row, err == nil
}

// computeJobs computes the figures of the given jobs in three statements whatever their number (a company's first
// read computes all of its jobs): the candidates' rows, then the answers and the opened questions of the few who
// started and did not complete.
func computeJobs(app core.App, jobs []jobRow) (map[string]*jobFigures, error) {
	result := make(map[string]*jobFigures, len(jobs))
	ids := make([]string, 0, len(jobs))
	for _, job := range jobs {
		result[job.ID] = newJobFigures(job.Version, job.questionIDs())
		ids = append(ids, job.ID)
	}
	if len(ids) == 0 {
		return result, nil
	}
	list, _ := json.Marshal(ids)
	params := dbx.Params{"jobs": string(list)}

	// the candidates: everything but the per-question figures
	rows, err := app.DB().NewQuery(`SELECT c.job, c.status, c.decision, c.linkOpenedAt, c.consentedAt, c.questionOpenedAt,
		c.invitedAt, c.created, c.completedAt, c.remindedEarlyAt, c.remindedLateAt
		FROM candidates c WHERE c.job IN (SELECT value FROM json_each({:jobs}))`).Bind(params).Rows()
	if err != nil {
		return nil, err
	}
	var job, status, decision, linkOpenedAt, consentedAt, questionOpenedAt, invitedAt, created, completedAt, early, late sql.RawBytes
	var current *jobFigures
	currentID := ""
	// by job, by minute: made into each job's ascending invites below
	invites := make(map[string]map[int64]*inviteCell, len(jobs))
	var currentInvites map[int64]*inviteCell
	for rows.Next() {
		if err := rows.Scan(&job, &status, &decision, &linkOpenedAt, &consentedAt, &questionOpenedAt, &invitedAt, &created, &completedAt, &early, &late); err != nil {
			rows.Close()
			return nil, err
		}
		if current == nil || string(job) != currentID {
			currentID = string(job)
			current = result[currentID]
			if currentInvites = invites[currentID]; currentInvites == nil {
				currentInvites = map[int64]*inviteCell{}
				invites[currentID] = currentInvites
			}
		}
		f := current
		completed := string(status) == "completed"
		started := completed || string(status) == "started" || len(questionOpenedAt) > 0
		agreed := started || len(consentedAt) > 0
		opened := agreed || len(linkOpenedAt) > 0
		f.funnel.invited++
		if opened {
			f.funnel.linkOpened++
		}
		if agreed {
			f.funnel.agreed++
		}
		if started {
			f.funnel.started++
		}
		if completed {
			f.funnel.completed++
		}
		switch string(decision) {
		case "advance":
			f.funnel.advance++
		case "hold":
			f.funnel.hold++
		case "reject":
			f.funnel.reject++
		}

		invited, okInvited := stampMs(invitedAt)
		if !okInvited {
			invited, okInvited = stampMs(created)
		}
		var done int64
		okDone := false
		if completed {
			done, okDone = stampMs(completedAt)
		}
		if okInvited {
			minute := invited / 60_000
			cell := currentInvites[minute]
			if cell == nil {
				cell = &inviteCell{minute: minute}
				currentInvites[minute] = cell
			}
			cell.invited++
			if completed {
				cell.completed++
			}
		}
		if okDone {
			if start, ok := stampMs(questionOpenedAt); ok && done >= start {
				f.startToComplete = append(f.startToComplete, done-start)
			}
			if okInvited && done >= invited {
				f.inviteToComplete = append(f.inviteToComplete, done-invited)
			}
		}

		reminder, reminded := stampMs(early)
		if !reminded {
			reminder, reminded = stampMs(late)
		}
		if reminded {
			f.reminded.candidates++
			if completed {
				f.reminded.completed++
				if okDone && done > reminder {
					f.reminded.completedAfter++
				}
			}
		} else {
			f.notReminded.candidates++
			if completed {
				f.notReminded.completed++
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}

	// the ones who started and did not complete: what they answered, and which questions they opened
	type candidateQuestions struct {
		job               string
		answered, reached map[string]bool
	}
	unfinished := map[string]*candidateQuestions{}
	collect := func(sqlText string, into func(c *candidateQuestions, question string)) error {
		rows, err := app.DB().NewQuery(sqlText).Bind(params).Rows()
		if err != nil {
			return err
		}
		defer rows.Close()
		var job, candidate string
		var question sql.NullString
		for rows.Next() {
			if err := rows.Scan(&job, &candidate, &question); err != nil {
				return err
			}
			c := unfinished[candidate]
			if c == nil {
				c = &candidateQuestions{job: job, answered: map[string]bool{}, reached: map[string]bool{}}
				unfinished[candidate] = c
			}
			if question.Valid {
				into(c, question.String)
			}
		}
		return rows.Err()
	}
	// status 'started': some answers and not all (the status 'invited' has none)
	err = collect(`SELECT c.job, c.id, a.question FROM candidates c JOIN answers a ON a.candidate = c.id
		WHERE c.job IN (SELECT value FROM json_each({:jobs})) AND c.status = 'started'`,
		func(c *candidateQuestions, question string) { c.answered[question] = true; c.reached[question] = true })
	if err != nil {
		return nil, err
	}
	err = collect(`SELECT c.job, c.id, p.question FROM candidates c
		LEFT JOIN question_progress p ON p.candidate = c.id AND p.openedAt != ''
		WHERE c.job IN (SELECT value FROM json_each({:jobs})) AND c.status != 'completed' AND c.questionOpenedAt != ''`,
		func(c *candidateQuestions, question string) { c.reached[question] = true })
	if err != nil {
		return nil, err
	}
	for _, c := range unfinished {
		f := result[c.job]
		if f == nil {
			continue
		}
		stopped := false
		for _, q := range f.questions {
			counts := f.byQuestion[q]
			if c.reached[q] {
				counts.reached++
			}
			if c.answered[q] {
				counts.answered++
			} else if !stopped {
				counts.stopped++
				stopped = true
			}
		}
	}
	for id, f := range result {
		f.invites = make([]inviteCell, 0, len(invites[id]))
		for _, cell := range invites[id] {
			f.invites = append(f.invites, *cell)
		}
		slices.SortFunc(f.invites, func(a, b inviteCell) int { return cmp.Compare(a.minute, b.minute) })
		for _, counts := range f.byQuestion {
			counts.reached += f.funnel.completed
			counts.answered += f.funnel.completed
		}
		slices.Sort(f.startToComplete)
		slices.Sort(f.inviteToComplete)
	}
	return result, nil
}

// stampMs reads a stored date ("2006-01-02 15:04:05.000Z", PocketBase's datetime text) as milliseconds since the
// epoch without allocating; other forms go through platform.ParseDBTime. ok false when empty or unreadable.
func stampMs(text []byte) (int64, bool) {
	if len(text) == 0 {
		return 0, false
	}
	if len(text) == 24 && text[4] == '-' && text[7] == '-' && text[10] == ' ' && text[13] == ':' && text[16] == ':' && text[19] == '.' && text[23] == 'Z' {
		n := func(from, to int) (int, bool) {
			v := 0
			for _, c := range text[from:to] {
				if c < '0' || c > '9' {
					return 0, false
				}
				v = v*10 + int(c-'0')
			}
			return v, true
		}
		year, ok1 := n(0, 4)
		month, ok2 := n(5, 7)
		day, ok3 := n(8, 10)
		hour, ok4 := n(11, 13)
		minute, ok5 := n(14, 16)
		second, ok6 := n(17, 19)
		milli, ok7 := n(20, 23)
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && month >= 1 && month <= 12 && day >= 1 && day <= 31 {
			return daysFromCivil(year, month, day)*86_400_000 + int64(hour)*3_600_000 + int64(minute)*60_000 + int64(second)*1000 + int64(milli), true
		}
	}
	t, ok := platform.ParseDBTime(string(text))
	if !ok {
		return 0, false
	}
	return t.UnixMilli(), true
}

// daysFromCivil is the days from 1970-01-01 to the given date of the proleptic Gregorian calendar (Howard Hinnant's
// days_from_civil).
func daysFromCivil(y, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era = (y - 399) / 400
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return int64(era)*146097 + int64(doe) - 719468
}

// percentile is the nearest-rank p-th percentile (0 < p ≤ 100) of ascending values: the smallest value with at least
// p% of them at or below it; ok false for none.
func percentile(ascending []int64, p int) (int64, bool) {
	if len(ascending) == 0 {
		return 0, false
	}
	rank := (p*len(ascending) + 99) / 100 // ceil(p/100 × n)
	if rank < 1 {
		rank = 1
	}
	return ascending[rank-1], true
}
