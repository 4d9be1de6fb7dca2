package review

import (
	"screenroom/server/internal/pipeline"
	"screenroom/server/internal/platform"

	"slices"
	"sync"
	"time"

	"github.com/pocketbase/pocketbase/core"
)

// managersOnlyCandidateFields are what only the job's company's managers (and superusers) see of a candidate: its
// rating and the decision (issue 15), and the extra time and takes granted to it (issue 17: the candidate sees only
// the resulting times and takes). Anyone else who may read the record (the candidate presenting its key) gets it
// without them.
var managersOnlyCandidateFields = slices.Concat(pipeline.RatingFields, pipeline.DecisionFields, []string{"extraTime", "extraTakes"})

// registerCandidateEnrich hides those fields wherever the API serialises a candidate (view, list, an expand from
// any collection, a realtime event). In Go rather than a JS onRecordEnrich: PocketBase runs a list's enrich hooks
// nested (each record's handler calls the next one's from inside e.Next()), so a JS handler held one goja runtime
// per record of the page until the last returned. A 30-row page of the pipeline held 30 runtimes of a pool of 15:
// new ones were built on the fly, 25-40 ms a page alone and seconds under 10 concurrent readers (issue 15's bench).
func registerCandidateEnrich(app core.App) {
	app.OnRecordEnrich("candidates").BindFunc(func(e *core.RecordEnrichEvent) error {
		if !candidateFieldsVisible(e) {
			e.Record.Hide(managersOnlyCandidateFields...)
		}
		return e.Next()
	})
}

func candidateFieldsVisible(e *core.RecordEnrichEvent) bool {
	if e.RequestInfo == nil || e.RequestInfo.Auth == nil {
		return false
	}
	auth := e.RequestInfo.Auth
	if auth.IsSuperuser() {
		return true
	}
	return auth.Collection().Name == "users" && enrichManages.answer(e.RequestInfo, e.Record.GetString("job"), auth.Id, func() bool {
		return platform.ManagesJob(e.App, e.Record.GetString("job"), auth.Id)
	})
}

// enrichManages answers platform.ManagesJob once per request, job and user: a listed page of a job's candidates (30 rows of
// the pipeline, all of one job) asked the same question of the database once per row, each a statement of its own.
var enrichManages = &requestMemo{ttl: 2 * time.Second}

// requestMemo remembers platform.ManagesJob's answers for the request they were asked in (PocketBase hands every record of a
// list, an expand or a realtime message the same *RequestInfo). An entry lives at most ttl, so an answer never
// outlives its request by more than that, even if the request's memory is reused for another.
type requestMemo struct {
	ttl       time.Duration
	mu        sync.Mutex
	entries   map[requestMemoKey]requestMemoEntry
	lastSweep time.Time
}

type requestMemoKey struct {
	info *core.RequestInfo
	job  string
	user string
}

type requestMemoEntry struct {
	manages bool
	at      time.Time
}

// answer is ask()'s answer for (info, jobId, userId), asked once per ttl.
func (m *requestMemo) answer(info *core.RequestInfo, jobId, userId string, ask func() bool) bool {
	// no request to remember it for; and a realtime message has a request info of its own per subscriber and
	// message, so remembering would only fill the map
	if info == nil || info.Context == core.RequestInfoContextRealtime {
		return ask()
	}
	key := requestMemoKey{info: info, job: jobId, user: userId}
	now := time.Now()
	m.mu.Lock()
	entry, ok := m.entries[key]
	m.mu.Unlock()
	if ok && now.Sub(entry.at) < m.ttl {
		return entry.manages
	}
	manages := ask()
	m.mu.Lock()
	if m.entries == nil {
		m.entries = map[requestMemoKey]requestMemoEntry{}
	}
	// expired entries go once a ttl, so none outlives its request by much (and a request's info is not kept alive)
	if now.Sub(m.lastSweep) >= m.ttl {
		m.lastSweep = now
		for k, e := range m.entries {
			if now.Sub(e.at) >= m.ttl {
				delete(m.entries, k)
			}
		}
	}
	if len(m.entries) < 4096 {
		m.entries[key] = requestMemoEntry{manages: manages, at: now}
	}
	m.mu.Unlock()
	return manages
}
