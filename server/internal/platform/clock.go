package platform

import (
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/pocketbase/pocketbase/core"
)

// The server's clock for deadlines, preparation and answer times, reminders and retention. In production it is the
// system clock. A server started with SCREENROOM_TEST_CLOCK=1 (tests only) adds an offset a superuser sets through
// the test-clock route (internal/devroutes), so a test moves time forward without waiting for it; every other server
// has no such route and no offset.

// TestClockStoreKey is where the offset lives in the app's store: milliseconds, as a number or its decimal text.
const TestClockStoreKey = "screenroom.testClockOffsetMs"

// DBTimeLayout is PocketBase's datetime text (UTC, milliseconds).
const DBTimeLayout = "2006-01-02 15:04:05.000Z"

// TestClockEnabled reports whether this server runs the test clock (SCREENROOM_TEST_CLOCK=1).
func TestClockEnabled() bool {
	return os.Getenv("SCREENROOM_TEST_CLOCK") == "1"
}

// TestClockOffset is the test clock's offset (0 without the test clock).
func TestClockOffset(app core.App) time.Duration {
	if !TestClockEnabled() {
		return 0
	}
	var ms float64
	switch v := app.Store().Get(TestClockStoreKey).(type) {
	case int64:
		ms = float64(v)
	case int:
		ms = float64(v)
	case float64:
		ms = v
	case string:
		ms, _ = strconv.ParseFloat(v, 64)
	}
	return time.Duration(ms) * time.Millisecond
}

// SetTestClockOffset moves the test clock to offset from the system clock.
func SetTestClockOffset(app core.App, offset time.Duration) {
	app.Store().Set(TestClockStoreKey, float64(offset/time.Millisecond))
}

// Now is now on the server's clock.
func Now(app core.App) time.Time {
	return time.Now().Add(TestClockOffset(app)).UTC()
}

// NowMs is Now in milliseconds since the epoch.
func NowMs(app core.App) int64 {
	return Now(app).UnixMilli()
}

// DBTime is PocketBase's datetime text of t.
func DBTime(t time.Time) string {
	return t.UTC().Format(DBTimeLayout)
}

// NowText is Now as PocketBase's datetime text.
func NowText(app core.App) string {
	return DBTime(Now(app))
}

// ParseDBTime reads a stored date field's text ("2006-01-02 15:04:05.000Z", or ISO 8601 with a T); ok false when
// empty or unreadable.
func ParseDBTime(text string) (time.Time, bool) {
	text = strings.TrimSpace(text)
	if text == "" {
		return time.Time{}, false
	}
	text = strings.Replace(text, "T", " ", 1)
	for _, layout := range []string{DBTimeLayout, "2006-01-02 15:04:05Z", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05Z07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, text); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
