package review

import (
	"testing"
	"time"

	"github.com/pocketbase/pocketbase/core"
)

// The candidates' enrich asks "does this user manage this job?" once per request, job and user, not once per row.
func TestRequestMemoAsksOncePerRequestJobAndUser(t *testing.T) {
	memo := &requestMemo{ttl: time.Hour}
	calls := 0
	ask := func(answer bool) func() bool {
		return func() bool {
			calls++
			return answer
		}
	}
	page, other := &core.RequestInfo{}, &core.RequestInfo{}
	for i := 0; i < 30; i++ {
		if !memo.answer(page, "job1", "user1", ask(true)) {
			t.Fatalf("row %d: want the first answer (true)", i)
		}
	}
	if calls != 1 {
		t.Fatalf("a page of 30 rows of one job asked %d times, want 1", calls)
	}
	// another job, another user, another request: asked again, each its own answer
	if memo.answer(page, "job2", "user1", ask(false)) || memo.answer(page, "job1", "user2", ask(false)) || memo.answer(other, "job1", "user1", ask(false)) {
		t.Fatal("an answer was taken from another job, user or request")
	}
	if calls != 4 {
		t.Fatalf("asked %d times, want 4", calls)
	}
	// no request info (a call outside a request): always asked
	memo.answer(nil, "job1", "user1", ask(true))
	memo.answer(nil, "job1", "user1", ask(true))
	if calls != 6 {
		t.Fatalf("asked %d times without request info, want 6", calls)
	}
	// a realtime message (a request info per subscriber and message): always asked, nothing kept
	live := &core.RequestInfo{Context: core.RequestInfoContextRealtime}
	memo.answer(live, "job1", "user1", ask(true))
	memo.answer(live, "job1", "user1", ask(true))
	if calls != 8 {
		t.Fatalf("asked %d times for a realtime message, want 8", calls)
	}
}

func TestRequestMemoForgetsAfterItsTTL(t *testing.T) {
	memo := &requestMemo{ttl: 10 * time.Millisecond}
	info := &core.RequestInfo{}
	memo.answer(info, "job1", "user1", func() bool { return true })
	time.Sleep(20 * time.Millisecond)
	if memo.answer(info, "job1", "user1", func() bool { return false }) {
		t.Fatal("an answer older than the ttl was used")
	}
	// and the expired entry was swept: only the new one is kept
	memo.answer(&core.RequestInfo{}, "job2", "user1", func() bool { return true })
	time.Sleep(20 * time.Millisecond)
	memo.answer(&core.RequestInfo{}, "job3", "user1", func() bool { return true })
	if len(memo.entries) != 1 {
		t.Fatalf("%d entries kept after their ttl, want 1 (the newest)", len(memo.entries))
	}
}
