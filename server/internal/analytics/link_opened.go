package analytics

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// Link opened: the first read of a candidate's interview link (decisions.md: recorded once, off the read's hot path).
// The read only notes the candidate's id and the time in memory, and only while its row has no stamp yet; a writer
// of its own stamps the noted candidates in one transaction a moment later. The interview read never waits for a
// write, and a link read again and again writes once. Noted stamps still waiting are written when the server stops;
// a crash loses them, and the candidate's next read notes them again (then later than the first was).

// flushDelay gathers the reads of a burst (a mailing's first minutes) into one transaction.
const flushDelay = 250 * time.Millisecond

// maxPending bounds what waits in memory: past it a read notes nothing (its candidate's next read will), so a
// database that cannot take writes costs no memory.
const maxPending = 10_000

type linkOpenings struct {
	mu      sync.Mutex
	pending map[string]string // candidate id → first read noted, PocketBase's datetime text
	wake    chan struct{}
}

const linkOpeningsStoreKey = "screenroom.analytics.linkOpenings"

func openingsOf(app core.App) *linkOpenings {
	return app.Store().GetOrSet(linkOpeningsStoreKey, func() any {
		return &linkOpenings{pending: map[string]string{}, wake: make(chan struct{}, 1)}
	}).(*linkOpenings)
}

// NoteLinkOpened records, off the caller's path, that candidate's interview link was read now (the first such read
// is kept). Called by the interview read once it has its answer; costs a map write, and nothing once the candidate
// has its stamp.
func NoteLinkOpened(app core.App, candidate *core.Record) {
	if candidate == nil || candidate.GetString(linkOpenedAtField) != "" {
		return
	}
	o := openingsOf(app)
	at := platform.NowText(app)
	o.mu.Lock()
	if _, noted := o.pending[candidate.Id]; !noted && len(o.pending) < maxPending {
		o.pending[candidate.Id] = at
	}
	o.mu.Unlock()
	select {
	case o.wake <- struct{}{}:
	default: // already woken
	}
}

// flush writes every noted stamp (the first read kept: a row stamped meanwhile stays as it is) in one transaction.
func (o *linkOpenings) flush(app core.App) {
	o.mu.Lock()
	noted := o.pending
	o.pending = map[string]string{}
	o.mu.Unlock()
	if len(noted) == 0 {
		return
	}
	err := app.RunInTransaction(func(txApp core.App) error {
		for id, at := range noted {
			_, err := txApp.DB().
				NewQuery("UPDATE candidates SET linkOpenedAt = {:at} WHERE id = {:id} AND linkOpenedAt = ''").
				Bind(dbx.Params{"at": at, "id": id}).
				Execute()
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		// kept for the next flush (the database busy, the disk full): nothing is lost while the server runs
		app.Logger().Warn("analytics: recording opened links failed; trying again", "candidates", len(noted), "error", err.Error())
		o.mu.Lock()
		for id, at := range noted {
			if _, newer := o.pending[id]; !newer && len(o.pending) < maxPending {
				o.pending[id] = at
			}
		}
		o.mu.Unlock()
		select {
		case o.wake <- struct{}{}:
		default:
		}
	}
}

func registerLinkOpened(app core.App) {
	// what is still noted is written before the database closes
	whileServing(app, func(app core.App) chan struct{} { return openingsOf(app).wake }, flushDelay, nil,
		func(app core.App) { openingsOf(app).flush(app) },
		func(app core.App) { openingsOf(app).flush(app) })
}

// whileServing runs a goroutine from the server's start until it stops: first start (if any), then, each time wake
// (of the app) is signalled, do after delay, which gathers the signals of a burst. The stop waits for it to return,
// then runs last (if any) while the database is still open.
func whileServing(app core.App, wake func(core.App) chan struct{}, delay time.Duration, start func(context.Context, core.App), do func(core.App), last func(core.App)) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	var started atomic.Bool
	app.OnServe().Bind(&hook.Handler[*core.ServeEvent]{
		Func: func(e *core.ServeEvent) error {
			signals := wake(e.App)
			started.Store(true)
			go func() {
				defer close(done)
				if start != nil {
					start(ctx, e.App)
				}
				for {
					select {
					case <-ctx.Done():
						return
					case <-signals:
					}
					timer := time.NewTimer(delay)
					select {
					case <-ctx.Done():
						timer.Stop()
						return
					case <-timer.C:
					}
					do(e.App)
				}
			}()
			return e.Next()
		},
	})
	app.OnTerminate().BindFunc(func(e *core.TerminateEvent) error {
		cancel()
		if started.Load() {
			<-done
		}
		if last != nil {
			last(e.App)
		}
		return e.Next()
	})
}
