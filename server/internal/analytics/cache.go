package analytics

import (
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/core"
)

// Each job's figures are kept in memory with the version of the job they were computed at (analytics_versions, which
// triggers move with every write the figures count), and computed again only once that version moved. A company's
// figures add up its jobs' (and are kept too, with the versions they were added from): after a write, a read of the
// company computes the one job that changed, not its 30,000 candidates. So the figures are never staler than the
// last committed write (decisions.md allows 60 s). One computation runs at a time: readers arriving meanwhile wait
// for it and take its result instead of computing the same again.

// maxKeptJobs bounds the memory: past it the kept figures are dropped and computed again as they are read.
const maxKeptJobs = 20_000

type keptCompany struct {
	key    string
	merged *merged
}

type figuresStore struct {
	mu        sync.Mutex
	jobs      map[string]*jobFigures
	companies map[string]keptCompany
	// one computation at a time
	computing sync.Mutex
	// for the bench and the logs: how long the last computation took and for how many jobs
	lastComputeMs float64
	lastComputed  int
}

const figuresStoreKey = "screenroom.analytics.figures"

func storeOf(app core.App) *figuresStore {
	return app.Store().GetOrSet(figuresStoreKey, func() any {
		return &figuresStore{jobs: map[string]*jobFigures{}, companies: map[string]keptCompany{}}
	}).(*figuresStore)
}

// figuresOf is the figures of each job, computed for those whose version moved since they were kept.
func (s *figuresStore) figuresOf(app core.App, jobs []jobRow) (map[string]*jobFigures, error) {
	found := make(map[string]*jobFigures, len(jobs))
	stale := func() []jobRow {
		var out []jobRow
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, job := range jobs {
			if kept := s.jobs[job.ID]; kept != nil && kept.version == job.Version {
				found[job.ID] = kept
			} else {
				out = append(out, job)
			}
		}
		return out
	}
	missing := stale()
	if len(missing) == 0 {
		return found, nil
	}
	s.computing.Lock()
	defer s.computing.Unlock()
	// computed by a reader this one waited for
	if missing = stale(); len(missing) == 0 {
		return found, nil
	}
	started := time.Now()
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
		s.jobs[id] = f
		found[id] = f
	}
	s.lastComputeMs = float64(time.Since(started).Microseconds()) / 1000
	s.lastComputed = len(computed)
	s.mu.Unlock()
	return found, nil
}

// companyFigures is the sum of the company's jobs' figures, kept while no job's version moved.
func (s *figuresStore) companyFigures(app core.App, companyID string, jobs []jobRow, zone *time.Location) (*merged, error) {
	var key strings.Builder
	key.WriteString(zone.String())
	key.WriteByte(';')
	for _, job := range jobs {
		key.WriteString(job.ID)
		key.WriteByte(':')
		key.WriteString(strconv.FormatInt(job.Version, 10))
		key.WriteByte(';')
	}
	s.mu.Lock()
	kept, ok := s.companies[companyID]
	s.mu.Unlock()
	if ok && kept.key == key.String() {
		return kept.merged, nil
	}
	figures, err := s.figuresOf(app, jobs)
	if err != nil {
		return nil, err
	}
	parts := make([]*jobFigures, 0, len(jobs))
	for _, job := range jobs {
		parts = append(parts, figures[job.ID])
	}
	result := mergeFigures(parts, zone)
	s.mu.Lock()
	s.companies[companyID] = keptCompany{key: key.String(), merged: result}
	s.mu.Unlock()
	return result, nil
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
// first read again and again (internal/devroutes, on a bench server only).
func Forget(app core.App) {
	s := storeOf(app)
	s.computing.Lock()
	defer s.computing.Unlock()
	s.mu.Lock()
	s.jobs = map[string]*jobFigures{}
	s.companies = map[string]keptCompany{}
	s.mu.Unlock()
}
