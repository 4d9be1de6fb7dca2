package accounts

import (
	"sync"
	"testing"
	"time"
)

func testThrottle(max int, window time.Duration) (*signinThrottle, *time.Time) {
	t := newSigninThrottle(max, window)
	clock := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	t.now = func() time.Time { return clock }
	return t, &clock
}

func TestSigninThrottleRefusesAtTheLimitAndForgetsAfterTheWindow(t *testing.T) {
	throttle, clock := testThrottle(3, time.Minute)
	key := signinAccountKey("users", "ada@example.com")
	for i := 0; i < 3; i++ {
		at, failures, ok := throttle.begin(key)
		if !ok || failures != i {
			t.Fatalf("attempt %d: ok=%v failures=%d", i+1, ok, failures)
		}
		throttle.end(key, at, true)
		*clock = clock.Add(time.Second)
	}
	if _, _, ok := throttle.begin(key); ok {
		t.Fatal("a fourth attempt within the window passed")
	}
	// the same account however it is spelled
	if _, _, ok := throttle.begin(signinAccountKey("users", "  ADA@Example.com ")); ok {
		t.Fatal("another spelling of the identity passed")
	}
	// another account is not held back
	if _, _, ok := throttle.begin(signinAccountKey("users", "grace@example.com")); !ok {
		t.Fatal("another account was refused")
	}
	// the first failure leaves the window: one attempt again
	*clock = clock.Add(time.Minute - 3*time.Second) // 60 s after the first failure, 59 after the second
	if _, failures, ok := throttle.begin(key); !ok || failures != 2 {
		t.Fatalf("after the first failure left the window: ok=%v failures=%d", ok, failures)
	}
}

func TestSigninThrottleSuccessGivesItsPlaceBackButClearsNothing(t *testing.T) {
	throttle, _ := testThrottle(3, time.Minute)
	key := signinAccountKey("users", "ada@example.com")
	for i := 0; i < 2; i++ {
		at, _, _ := throttle.begin(key)
		throttle.end(key, at, true)
	}
	at, failures, ok := throttle.begin(key)
	if !ok || failures != 2 {
		t.Fatalf("ok=%v failures=%d", ok, failures)
	}
	throttle.end(key, at, false) // signed in
	if _, failures, _ := throttle.begin(key); failures != 2 {
		t.Fatalf("a success changed the count: %d failures", failures)
	}
	throttle.clear(key) // a password reset
	if _, failures, _ := throttle.begin(key); failures != 0 {
		t.Fatalf("a reset left %d failures", failures)
	}
}

func TestSigninThrottleCountsAttemptsInFlight(t *testing.T) {
	throttle, _ := testThrottle(5, time.Minute)
	key := signinAccountKey("users", "ada@example.com")
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, ok := throttle.begin(key); ok {
				mu.Lock()
				passed++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if passed != 5 {
		t.Fatalf("%d of 50 guesses sent together were checked, want 5", passed)
	}
}

func TestSigninThrottleDelay(t *testing.T) {
	throttle := newSigninThrottle(20, time.Minute)
	cases := map[int]time.Duration{0: 0, 9: 0, 10: 500 * time.Millisecond, 11: time.Second, 15: 3 * time.Second, 19: 3 * time.Second}
	for failures, want := range cases {
		if got := throttle.delay(failures); got != want {
			t.Errorf("delay(%d) = %v, want %v", failures, got, want)
		}
	}
	if got := newSigninThrottle(1, time.Minute).delay(0); got != 0 {
		t.Errorf("a limit of one delays the first attempt by %v", got)
	}
}
