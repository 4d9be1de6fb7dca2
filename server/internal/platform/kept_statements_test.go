package platform

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
)

// keptTestDB is a file database opened as PocketBase opens it (DurableDBConnect's kept statements), on one connection
// so every statement below runs on the same kept set.
func keptTestDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := keptStatementsDB(filepath.Join(t.TempDir(), "kept.db") + "?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.DB().SetMaxOpenConns(1)
	mustExec(t, db.DB(), `CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)`)
	for i := 1; i <= 5; i++ {
		mustExec(t, db.DB(), `INSERT INTO items (id, name) VALUES (?, ?)`, i, fmt.Sprintf("item %d", i))
	}
	return db.DB()
}

func keptConnOf(t *testing.T, db *sql.DB) *keptConn {
	t.Helper()
	conn, err := db.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var kept *keptConn
	if err := conn.Raw(func(c any) error {
		kept, _ = c.(*keptConn)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if kept == nil {
		t.Fatal("the connection keeps no statements")
	}
	return kept
}

func names(t *testing.T, rows *sql.Rows) []string {
	t.Helper()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		out = append(out, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestKeptStatementRunsAgainWithNewValues(t *testing.T) {
	db := keptTestDB(t)
	const query = `SELECT name FROM items WHERE id >= ? ORDER BY id`
	for _, from := range []int{4, 2, 5, 9} {
		rows, err := db.Query(query, from)
		if err != nil {
			t.Fatal(err)
		}
		got := names(t, rows)
		if want := max(0, 6-from); len(got) != want {
			t.Fatalf("from %d: %v, want %d rows", from, got, want)
		}
	}
	kept := keptConnOf(t, db)
	if _, ok := kept.stmts[query]; !ok {
		t.Fatalf("the read's statement is not kept: %d kept", len(kept.stmts))
	}
}

func TestKeptStatementInUseIsNotReusedUnderItsRows(t *testing.T) {
	db := keptTestDB(t)
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	const query = `SELECT name FROM items WHERE id >= ? ORDER BY id`
	// warm: the text is kept
	warm, err := tx.Query(query, 1)
	if err != nil {
		t.Fatal(err)
	}
	names(t, warm)
	outer, err := tx.Query(query, 1)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	for outer.Next() {
		var name string
		if err := outer.Scan(&name); err != nil {
			t.Fatal(err)
		}
		// the same text, on the same connection, while the outer rows are open
		inner, err := tx.Query(query, 4)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, append([]string{name}, names(t, inner)...))
	}
	if err := outer.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != 5 || got[4][0] != "item 5" || len(got[0]) != 3 || got[0][2] != "item 5" {
		t.Fatalf("outer rows broken by the inner read: %v", got)
	}
}

func TestKeptStatementAfterAnErrorAndASchemaChange(t *testing.T) {
	db := keptTestDB(t)
	const insert = `INSERT INTO items (id, name) VALUES (?, ?)`
	if _, err := db.Exec(insert, 6, "item 1"); err == nil {
		t.Fatal("a duplicate name was stored")
	}
	if _, err := db.Exec(insert, 6, "item 6"); err != nil {
		t.Fatalf("the kept insert after its error: %v", err)
	}
	const all = `SELECT * FROM items WHERE id = ?`
	cols := func() []string {
		rows, err := db.Query(all, 6)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		c, _ := rows.Columns()
		return c
	}
	if c := cols(); len(c) != 2 {
		t.Fatalf("columns %v", c)
	}
	mustExec(t, db, `ALTER TABLE items ADD COLUMN note TEXT DEFAULT 'n'`)
	if c := cols(); len(c) != 3 || c[2] != "note" {
		t.Fatalf("columns after the migration: %v", c)
	}
	var note string
	if err := db.QueryRow(`SELECT note FROM items WHERE id = ?`, 6).Scan(&note); err != nil || note != "n" {
		t.Fatalf("note %q, %v", note, err)
	}
}

func TestKeptStatementsAreBounded(t *testing.T) {
	db := keptTestDB(t)
	for i := 0; i < 3*keptPerConnection; i++ {
		var n int
		if err := db.QueryRow(fmt.Sprintf(`SELECT count(*) + %d FROM items`, i)).Scan(&n); err != nil || n != 5+i {
			t.Fatalf("query %d: %d, %v", i, n, err)
		}
	}
	if _, err := db.Exec(`PRAGMA user_version = 3`); err != nil {
		t.Fatal(err)
	}
	kept := keptConnOf(t, db)
	if len(kept.stmts) != keptPerConnection || kept.recent.Len() != keptPerConnection {
		t.Fatalf("%d kept (%d in order), want %d", len(kept.stmts), kept.recent.Len(), keptPerConnection)
	}
	if _, ok := kept.stmts[`PRAGMA user_version = 3`]; ok {
		t.Fatal("a PRAGMA was kept")
	}
	newest := fmt.Sprintf(`SELECT count(*) + %d FROM items`, 3*keptPerConnection-1)
	if kept.recent.Front().Value.(*keptStmt).query != newest {
		t.Fatal("the newest text is not first")
	}
}

func mustExec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}
