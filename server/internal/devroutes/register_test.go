package devroutes

import (
	"net/http"
	"testing"

	"github.com/pocketbase/pocketbase/apis"
	"github.com/pocketbase/pocketbase/core"
)

var devPaths = []string{"/api/screenroom/test-clock", "/api/screenroom/bench-seed", "/api/screenroom/bench-seed/clone", "/api/screenroom/bench-seed/analytics-forget"}

// served registers the package on a fresh app and returns which of devPaths its router then has for POST, and how
// many OnServe handlers Register added.
func served(t *testing.T) (map[string]bool, int) {
	t.Helper()
	app := core.NewBaseApp(core.BaseAppConfig{DataDir: t.TempDir()})
	before := app.OnServe().Length()
	Register(app)
	added := app.OnServe().Length() - before
	r, err := apis.NewRouter(app)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.OnServe().Trigger(&core.ServeEvent{App: app, Router: r}, func(e *core.ServeEvent) error { return nil }); err != nil {
		t.Fatal(err)
	}
	has := map[string]bool{}
	for _, path := range devPaths {
		has[path] = r.HasRoute(http.MethodPost, path)
	}
	return has, added
}

func TestRegisterBindsNothingWhenTheSettingsAreOff(t *testing.T) {
	t.Setenv("SCREENROOM_TEST_CLOCK", "")
	t.Setenv(benchSeedSetting, "")
	has, added := served(t)
	if added != 0 {
		t.Errorf("Register bound %d OnServe handlers", added)
	}
	for path, ok := range has {
		if ok {
			t.Errorf("POST %s is routed", path)
		}
	}

	// a test clock set to anything but 1 is off too
	t.Setenv("SCREENROOM_TEST_CLOCK", "true")
	if has, _ := served(t); has["/api/screenroom/test-clock"] {
		t.Error("SCREENROOM_TEST_CLOCK=true routes the test clock")
	}
}

func TestRegisterBindsEachRouteWithItsSetting(t *testing.T) {
	t.Setenv("SCREENROOM_TEST_CLOCK", "1")
	t.Setenv(benchSeedSetting, "")
	has, _ := served(t)
	if !has["/api/screenroom/test-clock"] || has["/api/screenroom/bench-seed"] || has["/api/screenroom/bench-seed/clone"] || has["/api/screenroom/bench-seed/analytics-forget"] {
		t.Errorf("with the test clock only: %v", has)
	}

	t.Setenv("SCREENROOM_TEST_CLOCK", "")
	t.Setenv(benchSeedSetting, "/tmp/answer.webm")
	has, _ = served(t)
	if has["/api/screenroom/test-clock"] || !has["/api/screenroom/bench-seed"] || !has["/api/screenroom/bench-seed/clone"] || !has["/api/screenroom/bench-seed/analytics-forget"] {
		t.Errorf("with the bench seed only: %v", has)
	}
}

func TestJSNumber(t *testing.T) {
	for _, c := range []struct {
		raw   any
		given bool
		want  float64
		ok    bool
	}{
		{3_720_000.0, true, 3_720_000, true},
		{"-60000", true, -60000, true},
		{"", true, 0, true},
		{nil, true, 0, true},
		{true, true, 1, true},
		{nil, false, 0, false},
		{"soon", true, 0, false},
	} {
		got, ok := jsNumber(c.raw, c.given)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("jsNumber(%#v, %v) = %v, %v", c.raw, c.given, got, ok)
		}
	}
}
