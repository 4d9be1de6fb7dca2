package platform

import (
	"path/filepath"
	"testing"
)

// walAutocheckpoint opens a database as PocketBase does (DurableDBConnect) and reads its connection's threshold.
func walAutocheckpoint(t *testing.T) int {
	t.Helper()
	db, err := DurableDBConnect(filepath.Join(t.TempDir(), "data.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// every connection of the pool opens with the DSN's pragmas: one is enough to read them
	db.DB().SetMaxOpenConns(1)
	var pages int
	if err := db.NewQuery("PRAGMA wal_autocheckpoint").Row(&pages); err != nil {
		t.Fatal(err)
	}
	return pages
}

func TestReplicationLeavesEveryCheckpointToLitestream(t *testing.T) {
	t.Setenv("REPLICA_URL", "s3://bucket/screenroom")
	if pages := walAutocheckpoint(t); pages != 0 {
		t.Errorf("with REPLICA_URL: wal_autocheckpoint = %d, want 0 (Litestream checkpoints)", pages)
	}
}

func TestWithoutReplicationSQLiteCheckpointsByItself(t *testing.T) {
	t.Setenv("REPLICA_URL", "")
	if pages := walAutocheckpoint(t); pages != 1000 {
		t.Errorf("without REPLICA_URL: wal_autocheckpoint = %d, want SQLite's 1000", pages)
	}
}
