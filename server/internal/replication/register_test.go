package replication

import (
	"archive/zip"
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketbase/pocketbase/core"
	// PocketBase's own schema (its system migrations), which Bootstrap applies
	_ "github.com/pocketbase/pocketbase/migrations"
)

// newApp is a bootstrapped PocketBase on a temp data dir (short: a unix socket's path has at most 107 bytes), with
// PocketBase's own schema; with register, this package's hooks are bound as main binds them.
func newApp(t *testing.T, register bool) *core.BaseApp {
	t.Helper()
	dir, err := os.MkdirTemp("", "repl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	app := core.NewBaseApp(core.BaseAppConfig{DataDir: dir})
	if err := app.Bootstrap(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.ResetBootstrapState() })
	if register {
		Register(app)
	}
	return app
}

// runNightlyJob fills the data WAL with a 256 kB row, runs PocketBase's nightly database job as the cron would, and
// returns the WAL's size before and after it.
func runNightlyJob(t *testing.T, app *core.BaseApp) (before, after int64) {
	t.Helper()
	if _, err := app.DB().NewQuery("CREATE TABLE drill (b BLOB)").Execute(); err != nil {
		t.Fatal(err)
	}
	if _, err := app.DB().NewQuery("INSERT INTO drill VALUES (randomblob(262144))").Execute(); err != nil {
		t.Fatal(err)
	}
	wal := func() int64 {
		info, err := os.Stat(filepath.Join(app.DataDir(), "data.db-wal"))
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	before = wal()
	ran := false
	for _, job := range app.Cron().Jobs() {
		if job.Id() == "__pbDBOptimize__" {
			job.Run()
			ran = true
		}
	}
	if !ran {
		t.Fatal("no __pbDBOptimize__ job")
	}
	return before, wal()
}

func TestWithReplicationTheNightlyJobLeavesTheWALToLitestream(t *testing.T) {
	t.Setenv("REPLICA_URL", "s3://bucket/screenroom")
	if before, after := runNightlyJob(t, newApp(t, true)); after < before {
		t.Errorf("the nightly job truncated the WAL (%d → %d bytes): it checkpointed behind Litestream", before, after)
	}
}

func TestWithoutReplicationTheNightlyJobStillCheckpoints(t *testing.T) {
	t.Setenv("REPLICA_URL", "")
	if before, after := runNightlyJob(t, newApp(t, true)); after >= before/4 {
		t.Errorf("PocketBase's own nightly job should truncate the WAL: %d → %d bytes", before, after)
	}
}

// withSocket puts a listening unix socket where Litestream's control socket is, as a running Litestream does.
func withSocket(t *testing.T, app *core.BaseApp) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(app.DataDir(), Dir), 0o700); err != nil {
		t.Fatal(err)
	}
	listener, err := net.Listen("unix", SocketPath(app.DataDir()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { listener.Close() })
	if err := os.WriteFile(filepath.Join(app.DataDir(), Dir, "litestream.yml"), []byte("dbs: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestWithReplicationABackupZipLeavesLitestreamsFolderOut(t *testing.T) {
	t.Setenv("REPLICA_URL", "s3://bucket/screenroom")
	app := newApp(t, true)
	withSocket(t, app)
	if err := app.CreateBackup(context.Background(), "drill.zip"); err != nil {
		t.Fatalf("backup with Litestream running: %v", err)
	}
	zipped, err := zip.OpenReader(filepath.Join(app.DataDir(), core.LocalBackupsDirName, "drill.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zipped.Close()
	names := []string{}
	for _, f := range zipped.File {
		names = append(names, f.Name)
		if strings.HasPrefix(f.Name, Dir+"/") {
			t.Errorf("the zip holds %s", f.Name)
		}
	}
	if !strings.Contains(strings.Join(names, " "), "data.db") {
		t.Errorf("the zip has no data.db: %v", names)
	}
}

func TestWithoutTheExclusionLitestreamsSocketBreaksTheBackup(t *testing.T) {
	app := newApp(t, false)
	withSocket(t, app)
	if err := app.CreateBackup(context.Background(), "drill.zip"); err == nil {
		t.Error("a zip of the data dir with a socket in it should fail; the exclusion above would prove nothing")
	}
}
