// Package devroutes: routes for tests and the benchmark only, each bound only on a server started with its setting
// (SCREENROOM_TEST_CLOCK=1: the test clock; SCREENROOM_BENCH_SEED: the bench's seeding routes); a production server
// has none of them, and their paths answer 404 there like any unknown path.
package devroutes

import (
	"os"

	"screenroom/server/internal/platform"

	"github.com/pocketbase/pocketbase/core"
)

// Register binds the routes whose settings are on, and nothing else.
func Register(app core.App) {
	if platform.TestClockEnabled() {
		registerTestClock(app)
	}
	if videoPath := os.Getenv(benchSeedSetting); videoPath != "" {
		registerBenchSeed(app, videoPath)
	}
}
