package platform

import (
	"database/sql"
	"path/filepath"
	"strings"
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

// readThenWrite runs, on a database opened by DurableDBConnect, a transaction that reads, lets another process's
// connection (Litestream's, with no busy timeout) commit a row, then writes: it returns the other writer's error and
// the transaction's.
func readThenWrite(t *testing.T) (otherErr, txErr error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "data.db")
	db, err := DurableDBConnect(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.DB().Exec("CREATE TABLE items (n INTEGER)"); err != nil {
		t.Fatal(err)
	}
	other, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()

	tx, err := db.DB().Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var count int
	if err := tx.QueryRow("SELECT COUNT(*) FROM items").Scan(&count); err != nil {
		t.Fatal(err)
	}
	_, otherErr = other.Exec("INSERT INTO items VALUES (1)")
	if _, txErr = tx.Exec("INSERT INTO items VALUES (2)"); txErr == nil {
		txErr = tx.Commit()
	}
	return otherErr, txErr
}

func TestWithReplicationAWriteTransactionHoldsTheWriteLockFromBegin(t *testing.T) {
	t.Setenv("REPLICA_URL", "s3://bucket/screenroom")
	otherErr, txErr := readThenWrite(t)
	if otherErr == nil {
		t.Error("the other writer committed inside PocketBase's write transaction")
	}
	if txErr != nil {
		t.Errorf("PocketBase's write after its read failed: %v", txErr)
	}
}

// Without replication PocketBase is the only writer; this shows what the immediate transactions above prevent.
func TestADeferredTransactionCannotWriteAfterAnotherWritersCommit(t *testing.T) {
	t.Setenv("REPLICA_URL", "")
	otherErr, txErr := readThenWrite(t)
	if otherErr != nil {
		t.Fatalf("the other writer: %v", otherErr)
	}
	if txErr == nil || !strings.Contains(txErr.Error(), "database is locked") {
		t.Errorf("want SQLite's busy snapshot (\"database is locked\") at once, got %v", txErr)
	}
}
