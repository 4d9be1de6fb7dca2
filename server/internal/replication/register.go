// Package replication: the server's side of continuous replication. Litestream runs as its own process beside
// PocketBase when REPLICA_URL is set (scripts/lib/litestream.mjs writes its configuration, scripts/serve.mjs runs it)
// and ships both databases' write-ahead logs to S3-compatible storage. Here: Litestream does every checkpoint
// (platform.DurableDBConnect turns SQLite's automatic ones off; the nightly checkpoint of PocketBase is dropped),
// PocketBase's backup zips leave Litestream's local folder out, and Lag reads from Litestream how far behind the
// replica is.
package replication

import (
	"log/slog"
	"path/filepath"

	"github.com/pocketbase/pocketbase/core"

	"screenroom/server/internal/platform"
)

// Dir is Litestream's local folder inside the data dir (its configuration, each database's metadata and its control
// socket): scripts/lib/litestream.mjs uses the same name.
const Dir = "litestream"

// SocketPath is Litestream's control socket for the data dir dataDir.
func SocketPath(dataDir string) string {
	return filepath.Join(dataDir, Dir, "control.sock")
}

// Register binds the package's hooks to app; without replication it binds nothing.
func Register(app core.App) {
	if !platform.Replicated() {
		return
	}
	// PocketBase's nightly job runs a TRUNCATE checkpoint of both databases, which waits behind Litestream's read
	// transaction for the whole busy timeout with every writer blocked, then gives up. Same id: the job is replaced,
	// keeping its PRAGMA optimize.
	app.Cron().MustAdd("__pbDBOptimize__", "0 0 * * *", func() {
		if _, err := app.NonconcurrentDB().NewQuery("PRAGMA optimize").Execute(); err != nil {
			app.Logger().Warn("Failed to run periodic PRAGMA optimize", slog.String("error", err.Error()))
		}
	})
	// Litestream's metadata and socket are its own state on this machine, not data (and a socket cannot be zipped:
	// the backup would fail). A restored zip therefore comes without them, which is what Litestream asks for a
	// replaced database: its metadata cleared, then a restart (docs/operations.md).
	app.OnBackupCreate().BindFunc(func(e *core.BackupEvent) error {
		e.Exclude = append(e.Exclude, Dir)
		return e.Next()
	})
}
