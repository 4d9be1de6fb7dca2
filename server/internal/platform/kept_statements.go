package platform

import (
	"container/list"
	"context"
	"database/sql"
	"database/sql/driver"
	"reflect"
	"strings"

	"github.com/pocketbase/dbx"
)

// Kept statements (issue 20 point 3): each connection of the data and auxiliary databases keeps the prepared SQLite
// statements of its most recently run texts and runs a repeated text through its kept statement instead of parsing
// and planning it again. Parsing was a fifth of a records API read's CPU (sqlite3Prepare in a profile of the job
// detail), and PocketBase's reads repeat few texts: values are bound (dbx turns every {:name} into `?`), so the auth
// record's load, a collection's view and a rule's filter have one text each.
//
// A kept statement is what modernc.org/sqlite makes of a prepared single statement: its handle is reset, not
// finalized, when its rows close. A text whose kept statement still has rows open on the connection (the same text
// run again inside a transaction while its first rows are read) is prepared afresh, as before. SQLite prepares a kept
// statement again by itself when the schema changes (sqlite3_prepare_v2), so a migration needs nothing here.
//
// Each connection keeps at most keptPerConnection statements, the least recently used dropped first; texts longer
// than keptMaxQuery (long IN lists, which rarely repeat) and statements other than reads and writes of rows (PRAGMA,
// VACUUM, ATTACH, BEGIN ...) are never kept. The connection finalizes its kept statements before it closes.

const (
	keptPerConnection = 64
	keptMaxQuery      = 8 << 10
)

// sqliteConn is what modernc.org/sqlite's connection implements and database/sql asks of it.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.QueryerContext
	driver.ExecerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// keptStatementsDB opens the database at dsn with the "sqlite" driver (its connection hooks included: fts5_rank.go),
// every connection keeping its statements. dbx keeps the driver's name, so it builds SQLite's SQL as before.
func keptStatementsDB(dsn string) (*dbx.DB, error) {
	probe, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	base := probe.Driver()
	probe.Close()
	return dbx.NewFromDB(sql.OpenDB(keptConnector{base: base, dsn: dsn}), "sqlite"), nil
}

type keptConnector struct {
	base driver.Driver
	dsn  string
}

func (k keptConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := k.base.Open(k.dsn)
	if err != nil {
		return nil, err
	}
	if full, ok := conn.(sqliteConn); ok {
		return &keptConn{sqliteConn: full, stmts: map[string]*list.Element{}}, nil
	}
	// a driver of another shape: its connection as it is
	return conn, nil
}

func (k keptConnector) Driver() driver.Driver { return k.base }

type keptConn struct {
	sqliteConn
	stmts  map[string]*list.Element // text → its element in recent
	recent list.List                // of *keptStmt, the most recently used first
}

type keptStmt struct {
	query string
	stmt  driver.Stmt
	busy  bool // its rows are open (or it is running)
}

// keepable: a read or a write of rows, of a text short enough to be likely to repeat
func keepable(query string) bool {
	if len(query) > keptMaxQuery {
		return false
	}
	query = strings.TrimLeft(query, " \t\r\n(")
	for _, verb := range [...]string{"SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "REPLACE"} {
		if len(query) >= len(verb) && strings.EqualFold(query[:len(verb)], verb) {
			return true
		}
	}
	return false
}

// take is the kept statement of query, marked busy, or nil when the text is not kept, its statement is busy, or it
// could not be prepared (the caller then runs the text as before, which reports the error).
func (c *keptConn) take(ctx context.Context, query string) *keptStmt {
	if !keepable(query) {
		return nil
	}
	if el, ok := c.stmts[query]; ok {
		kept := el.Value.(*keptStmt)
		if kept.busy {
			return nil
		}
		c.recent.MoveToFront(el)
		kept.busy = true
		return kept
	}
	if len(c.stmts) >= keptPerConnection && !c.dropOldest() {
		return nil
	}
	stmt, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil {
		return nil
	}
	kept := &keptStmt{query: query, stmt: stmt, busy: true}
	c.stmts[query] = c.recent.PushFront(kept)
	return kept
}

// dropOldest finalizes the least recently used statement that is not busy; false when every one is.
func (c *keptConn) dropOldest() bool {
	for el := c.recent.Back(); el != nil; el = el.Prev() {
		kept := el.Value.(*keptStmt)
		if kept.busy {
			continue
		}
		c.recent.Remove(el)
		delete(c.stmts, kept.query)
		kept.stmt.Close()
		return true
	}
	return false
}

func (c *keptConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	kept := c.take(ctx, query)
	if kept == nil {
		return c.sqliteConn.QueryContext(ctx, query, args)
	}
	rows, err := kept.stmt.(driver.StmtQueryContext).QueryContext(ctx, args)
	if err != nil {
		kept.busy = false
		return nil, err
	}
	return &keptRows{Rows: rows, kept: kept}, nil
}

func (c *keptConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	kept := c.take(ctx, query)
	if kept == nil {
		return c.sqliteConn.ExecContext(ctx, query, args)
	}
	defer func() { kept.busy = false }()
	return kept.stmt.(driver.StmtExecContext).ExecContext(ctx, args)
}

func (c *keptConn) Close() error {
	for el := c.recent.Front(); el != nil; el = el.Next() {
		el.Value.(*keptStmt).stmt.Close()
	}
	c.recent.Init()
	clear(c.stmts)
	return c.sqliteConn.Close()
}

// keptRows frees its statement for the next run when closed (the driver resets it) and passes on the column types
// the driver's rows give (database/sql's ColumnTypes, PocketBase's raw SQL reads).
type keptRows struct {
	driver.Rows
	kept *keptStmt
}

func (r *keptRows) Close() error {
	err := r.Rows.Close()
	r.kept.busy = false
	return err
}

func (r *keptRows) ColumnTypeDatabaseTypeName(index int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(index)
	}
	return ""
}

func (r *keptRows) ColumnTypeLength(index int) (int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeLength); ok {
		return t.ColumnTypeLength(index)
	}
	return 0, false
}

func (r *keptRows) ColumnTypeNullable(index int) (bool, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypeNullable); ok {
		return t.ColumnTypeNullable(index)
	}
	return false, false
}

func (r *keptRows) ColumnTypePrecisionScale(index int) (int64, int64, bool) {
	if t, ok := r.Rows.(driver.RowsColumnTypePrecisionScale); ok {
		return t.ColumnTypePrecisionScale(index)
	}
	return 0, 0, false
}

func (r *keptRows) ColumnTypeScanType(index int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(index)
	}
	return reflect.TypeFor[any]()
}
