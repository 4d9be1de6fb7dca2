package platform

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
	"github.com/pocketbase/pocketbase/tools/hook"
)

// DurableDBConnect is core.DefaultDBConnect with synchronous(FULL): in WAL mode, NORMAL may lose the last commits
// on a power cut (the WAL is synced only at checkpoints); FULL syncs the WAL on every commit, so a transaction that
// returned is on stable storage before its response is written.
//
// SCREENROOM_DURABILITY=off (the bench's "before" figure only, never a deployment) keeps PocketBase's own
// synchronous(NORMAL) and syncs no file.
//
// With replication on (REPLICA_URL), Litestream is the only checkpointer, as its documentation asks of an application
// beside it: wal_autocheckpoint(0), so a commit of PocketBase never copies WAL pages into the database between two
// of Litestream's checkpoints (Litestream would miss those frames and upload a whole snapshot instead). Litestream's
// own passive checkpoints keep the WAL small; busy_timeout covers its short write locks.
//
// Litestream also writes to the database itself (each checkpoint commits a row of its own), so PocketBase is no longer
// the only writer: a deferred transaction that read before Litestream's commit and writes after it gets SQLITE_BUSY
// at once, which no busy timeout waits out, and PocketBase retried that statement in the same stale transaction for
// 7.4 s before giving up on it (measured: writes stalled 7.5 s twice a minute). With _txlock=immediate a write
// transaction takes the write lock at BEGIN, where busy_timeout waits for Litestream's instead.
//
// mmap_size: SQLite reads the database file through a memory map. Every commit makes the other connections drop their
// page caches, so under writes each read loaded its pages again with a read() call apiece: the figures of a job of
// 3,000 candidates took 80 ms right after a decision, 37 ms mapped (20 ms with warm caches; a covering index for them
// saved a few more ms only, not worth its writes). The map is of the file (the kernel's page cache, shared and
// reclaimable), not memory of the server's own; writes still go through write().
//
// SCREENROOM_DB_MAX_PAGES (tests only) caps the data database at that many pages, a full disk for SQLite where a
// size-limited tmpfs cannot be mounted.
func DurableDBConnect(dbPath string) (*dbx.DB, error) {
	// busy_timeout first, so the connection blocks on busy before WAL mode is set (as core.DefaultDBConnect)
	synchronous := "FULL"
	if !Durable() {
		synchronous = "NORMAL"
	}
	pragmas := "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=journal_size_limit(200000000)" +
		"&_pragma=synchronous(" + synchronous + ")&_pragma=foreign_keys(ON)&_pragma=temp_store(MEMORY)&_pragma=cache_size(-32000)&_pragma=mmap_size(1073741824)"
	if Replicated() {
		pragmas += "&_pragma=wal_autocheckpoint(0)&_txlock=immediate"
	}
	if pages, err := strconv.Atoi(os.Getenv("SCREENROOM_DB_MAX_PAGES")); err == nil && pages > 0 && filepath.Base(dbPath) == "data.db" {
		pragmas += fmt.Sprintf("&_pragma=max_page_count(%d)", pages)
	}
	return keptStatementsDB(dbPath + pragmas)
}

// registerDurableFiles makes a stored file durable before the row that names it: PocketBase's local storage writes
// an upload through a temp file and a rename and never syncs. Between the upload of a record's new files and its
// database write (priority 100 runs after the file field's interceptor has uploaded them, inside its action), each
// new file, its record's folder and the folders above it are fsynced. A failure refuses the save (the interceptor
// then removes the uploaded files). Files on S3 are the bucket's to keep.
func registerDurableFiles(app core.App) {
	if !Durable() {
		return
	}
	sync := &hook.Handler[*core.RecordEvent]{
		Func: func(e *core.RecordEvent) error {
			if err := syncNewFiles(e.App, e.Record); err != nil {
				return err
			}
			return e.Next()
		},
		Priority: 100,
	}
	app.OnRecordCreateExecute().Bind(sync)
	app.OnRecordUpdateExecute().Bind(sync)
}

func syncNewFiles(app core.App, record *core.Record) error {
	if app.Settings().S3.Enabled {
		return nil
	}
	var names []string
	for _, field := range record.Collection().Fields {
		if field.Type() != core.FieldTypeFile {
			continue
		}
		for _, file := range record.GetUnsavedFiles(field.GetName()) {
			names = append(names, file.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	storage := filepath.Join(app.DataDir(), core.LocalStorageDirName)
	recordDir := filepath.Join(storage, filepath.FromSlash(record.BaseFilesPath()))
	for _, name := range names {
		if err := SyncPath(filepath.Join(recordDir, name)); err != nil {
			return err
		}
	}
	// the file's name in its folder, the record's folder in its collection's, the collection's in storage
	for _, dir := range []string{recordDir, filepath.Dir(recordDir), storage} {
		if err := SyncPath(dir); err != nil {
			return err
		}
	}
	return nil
}

// SyncPath fsyncs a file or a folder.
func SyncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}

// Replicated reports whether Litestream replicates the databases: REPLICA_URL set, as scripts/serve.mjs reads it to
// start Litestream beside PocketBase.
func Replicated() bool {
	return strings.TrimSpace(os.Getenv("REPLICA_URL")) != ""
}

// durable is false only with SCREENROOM_DURABILITY=off (the bench's comparison).
func Durable() bool {
	return os.Getenv("SCREENROOM_DURABILITY") != "off"
}
