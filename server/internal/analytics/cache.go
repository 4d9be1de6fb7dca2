package analytics

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// Each job's figures are kept in memory with the version of the job they were computed at (analytics_versions, which
// triggers move with every write the figures count) and the server's time they were computed at. A read serves them:
//   - as they are while the job's version has not moved: they count every write, so they are as of now;
//   - as they are, with their own time, while they are younger than maxStale though the job moved since (decisions.md:
//     figures at most 60 s stale). The moved jobs are computed again behind the read a moment later, so the next read
//     has them, and the answer says so (refreshing: the screen reads again);
//   - computed before the answer otherwise: nothing kept, kept too long ago, or the manager asked for the latest
//     (Refresh).
// A company's figures add up its jobs' and are kept too, with the versions they were added from. The server computes
// the figures when it starts (warm-up), so no manager waits for a company's 30,000 candidates to be read. One
// computation runs at a time: readers arriving meanwhile wait for it and take its result instead of computing the
// same again.

// maxStale is how old kept figures of a moved job may be and still be served (decisions.md allows 60 s; the rest is
// for the computation behind the read).
const maxStale = 45 * time.Second

// behindDelay gathers the writes of a burst before the moved jobs are computed again behind the reads.
const behindDelay = 300 * time.Millisecond

// maxKeptJobs bounds the memory: past it the kept figures are dropped and computed again as they are read.
const maxKeptJobs = 20_000

// warmJobs is how many jobs the warm-up computes at most (the most recently changed companies first), and warmChunk
// how many at a time, so that a reader waits for one chunk at most. After each chunk the warm-up rests as long as the
// chunk took: it takes half a core at most from the requests of a server just started.
const (
	warmJobs  = maxKeptJobs / 2
	warmChunk = 50
)

type keptCompany struct {
	key    string
	merged *merged
}

type figuresStore struct {
	mu        sync.Mutex
	jobs      map[string]*jobFigures
	companies map[string]keptCompany
	// the moved jobs served from what was kept, to compute again behind the reads
	behind map[string]bool
	wake   chan struct{}
	// one computation at a time
	computing sync.Mutex
}

const figuresStoreKey = "screenroom.analytics.figures"

func storeOf(app core.App) *figuresStore {
	return app.Store().GetOrSet(figuresStoreKey, func() any {
		return &figuresStore{jobs: map[string]*jobFigures{}, companies: map[string]keptCompany{}, behind: map[string]bool{}, wake: make(chan struct{}, 1)}
	}).(*figuresStore)
}

// readFigures is what a read is answered from: each job's figures, the time before which they count every write,
// and whether some are being computed again behind the read.
type readFigures struct {
	jobs       map[string]*jobFigures
	asOf       time.Time
	refreshing bool
}

// figuresOf is the figures of each job: kept ones as the comment above says, the others computed now. fresh (the
// manager's Refresh) computes every moved job before the answer.
func (s *figuresStore) figuresOf(app core.App, jobs []jobRow, fresh bool) (*readFigures, error) {
	now := platform.Now(app)
	read := &readFigures{jobs: make(map[string]*jobFigures, len(jobs)), asOf: now}
	// sorts the jobs: kept and current; kept, moved and recent (computed again behind); or to compute now
	sortOut := func(jobs []jobRow) []jobRow {
		var missing []jobRow
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, job := range jobs {
			kept := s.jobs[job.ID]
			switch {
			case kept != nil && kept.version >= job.Version:
				read.jobs[job.ID] = kept
			// a clock set back (the tests' clock) makes kept figures from its future too old
			case kept != nil && !fresh && !kept.computedAt.After(now) && now.Sub(kept.computedAt) < maxStale:
				read.jobs[job.ID] = kept
				if kept.computedAt.Before(read.asOf) {
					read.asOf = kept.computedAt
				}
				read.refreshing = true
				s.behind[job.ID] = true
			default:
				missing = append(missing, job)
			}
		}
		return missing
	}
	missing := sortOut(jobs)
	if read.refreshing {
		select {
		case s.wake <- struct{}{}:
		default: // already woken
		}
	}
	if len(missing) == 0 {
		return read, nil
	}
	s.computing.Lock()
	defer s.computing.Unlock()
	// computed by a reader this one waited for
	if missing = sortOut(missing); len(missing) == 0 {
		return read, nil
	}
	computed, err := computeJobs(app, missing)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if len(s.jobs)+len(computed) > maxKeptJobs {
		s.jobs = map[string]*jobFigures{}
		s.companies = map[string]keptCompany{}
	}
	for id, f := range computed {
		// every write committed before the read began is counted: the rows were read after it
		f.computedAt = now
		s.jobs[id] = f
		read.jobs[id] = f
		delete(s.behind, id)
	}
	s.mu.Unlock()
	return read, nil
}

// companyFigures is the sum of the company's jobs' figures (as figuresOf serves them), kept while the figures it
// added up are those served.
func (s *figuresStore) companyFigures(app core.App, companyID string, jobs []jobRow, zone *time.Location, fresh bool) (*merged, *readFigures, error) {
	read, err := s.figuresOf(app, jobs, fresh)
	if err != nil {
		return nil, nil, err
	}
	var key strings.Builder
	key.WriteString(zone.String())
	key.WriteByte(';')
	parts := make([]*jobFigures, 0, len(jobs))
	for _, job := range jobs {
		f := read.jobs[job.ID]
		parts = append(parts, f)
		key.WriteString(job.ID)
		key.WriteByte(':')
		key.WriteString(strconv.FormatInt(f.version, 10))
		key.WriteByte(';')
	}
	s.mu.Lock()
	kept, ok := s.companies[companyID]
	s.mu.Unlock()
	if ok && kept.key == key.String() {
		return kept.merged, read, nil
	}
	result := mergeFigures(parts, zone)
	s.mu.Lock()
	s.companies[companyID] = keptCompany{key: key.String(), merged: result}
	s.mu.Unlock()
	return result, read, nil
}

// computeBehind computes again the moved jobs that reads were served kept figures of.
func (s *figuresStore) computeBehind(app core.App) {
	s.mu.Lock()
	ids := make([]string, 0, len(s.behind))
	for id := range s.behind {
		ids = append(ids, id)
	}
	s.behind = map[string]bool{}
	s.mu.Unlock()
	if len(ids) == 0 {
		return
	}
	list, _ := json.Marshal(ids)
	var jobs []jobRow
	err := app.DB().NewQuery(jobsSelect + " WHERE j.id IN (SELECT value FROM json_each({:ids}))").Bind(dbx.Params{"ids": string(list)}).All(&jobs)
	if err == nil {
		_, err = s.figuresOf(app, jobs, true)
	}
	if err != nil {
		// the next read serving these kept figures asks again; past maxStale a read computes them itself
		app.Logger().Warn("analytics: computing moved jobs' figures failed", "jobs", len(ids), "error", err.Error())
	}
}

// warmUp computes the figures of the most recently changed companies' jobs, warmJobs at most, before a manager asks.
func (s *figuresStore) warmUp(ctx context.Context, app core.App) {
	started := time.Now()
	var companies []struct {
		ID string `db:"company"`
	}
	if err := app.DB().NewQuery("SELECT company FROM jobs GROUP BY company ORDER BY MAX(updated) DESC").All(&companies); err != nil {
		app.Logger().Warn("analytics: warm-up failed", "error", err.Error())
		return
	}
	warmed := 0
	for _, c := range companies {
		if ctx.Err() != nil {
			return
		}
		company, err := companyOf(app, c.ID)
		if err != nil {
			continue
		}
		jobs, err := companyJobs(app, c.ID)
		if err != nil || warmed+len(jobs) > warmJobs {
			break
		}
		for from := 0; from < len(jobs); from += warmChunk {
			chunk := time.Now()
			if _, err := s.figuresOf(app, jobs[from:min(from+warmChunk, len(jobs))], false); err != nil {
				app.Logger().Warn("analytics: warm-up failed", "error", err.Error())
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Since(chunk)):
			}
		}
		if _, _, err := s.companyFigures(app, c.ID, jobs, platform.Zone(company.TimeZone), false); err != nil {
			app.Logger().Warn("analytics: warm-up failed", "error", err.Error())
			return
		}
		warmed += len(jobs)
	}
	app.Logger().Info("analytics: figures computed", "jobs", warmed, "ms", time.Since(started).Milliseconds())
}

// registerFigures warms the figures up when the server starts and computes moved jobs behind the reads until it stops.
func registerFigures(app core.App) {
	whileServing(app, func(app core.App) chan struct{} { return storeOf(app).wake }, behindDelay,
		func(ctx context.Context, app core.App) { storeOf(app).warmUp(ctx, app) },
		func(app core.App) { storeOf(app).computeBehind(app) }, nil)
}

// merged is figures added up over jobs (one job's are its own), the weeks cut in the company's time zone.
type merged struct {
	funnel                           funnelCounts
	reminded, notReminded            reminderCounts
	timeToComplete, inviteToComplete durationJSON
	weeks                            []weekJSON
	earlier                          *earlierJSON
	// by question id, over every job that asks it
	byQuestion map[string]*questionCounts
}

func mergeFigures(parts []*jobFigures, zone *time.Location) *merged {
	m := &merged{byQuestion: map[string]*questionCounts{}}
	starts := make([][]int64, 0, len(parts))
	fromInvites := make([][]int64, 0, len(parts))
	invites := make([][]inviteCell, 0, len(parts))
	for _, f := range parts {
		a, b := &m.funnel, f.funnel
		a.invited += b.invited
		a.linkOpened += b.linkOpened
		a.agreed += b.agreed
		a.started += b.started
		a.completed += b.completed
		a.advance += b.advance
		a.hold += b.hold
		a.reject += b.reject
		addReminders(&m.reminded, f.reminded)
		addReminders(&m.notReminded, f.notReminded)
		starts = append(starts, f.startToComplete)
		fromInvites = append(fromInvites, f.inviteToComplete)
		invites = append(invites, f.invites)
		for id, counts := range f.byQuestion {
			into := m.byQuestion[id]
			if into == nil {
				into = &questionCounts{}
				m.byQuestion[id] = into
			}
			into.reached += counts.reached
			into.answered += counts.answered
			into.stopped += counts.stopped
		}
	}
	m.timeToComplete = durationOf(starts)
	m.inviteToComplete = durationOf(fromInvites)
	m.weeks, m.earlier = weeksOf(invites, zone)
	return m
}

func addReminders(into *reminderCounts, r reminderCounts) {
	into.candidates += r.candidates
	into.completed += r.completed
	into.completedAfter += r.completedAfter
}

// Forget drops every kept figure, so the next reads compute them from the rows: for the bench, which measures that
// computation (internal/devroutes, on a bench server only).
func Forget(app core.App) {
	s := storeOf(app)
	s.computing.Lock()
	defer s.computing.Unlock()
	s.mu.Lock()
	s.jobs = map[string]*jobFigures{}
	s.companies = map[string]keptCompany{}
	s.behind = map[string]bool{}
	s.mu.Unlock()
}
