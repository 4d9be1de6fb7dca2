package main

import (
	"database/sql"
	"sync"
	"sync/atomic"
)

// Prepared reads (issue 18 point 3): the search's frequent statements are prepared once per SQL text and connection
// pool and then reused, since parsing and planning them (the ranked window's query alone: ~0.12 ms) was a fifth of a
// search's time. The driver keeps each connection's prepared SQLite statement (modernc.org/sqlite caches a single
// statement's handle); database/sql prepares it again on any other connection of the pool it runs on. The caller
// keeps only texts of a small fixed set (a first page's, not a deep page's), and at most maxPreparedStatements are
// kept in all: past that a query is prepared each time, as one not kept is.

const maxPreparedStatements = 64

type preparedKey struct {
	db    *sql.DB
	query string
}

var (
	preparedStatements sync.Map // preparedKey → *sql.Stmt
	preparedKept       atomic.Int32
)

func preparedStatement(db *sql.DB, query string) (*sql.Stmt, bool, error) {
	key := preparedKey{db, query}
	if stmt, ok := preparedStatements.Load(key); ok {
		return stmt.(*sql.Stmt), true, nil
	}
	stmt, err := db.Prepare(query)
	if err != nil {
		return nil, false, err
	}
	if preparedKept.Add(1) > maxPreparedStatements {
		preparedKept.Add(-1)
		return stmt, false, nil
	}
	if kept, loaded := preparedStatements.LoadOrStore(key, stmt); loaded {
		preparedKept.Add(-1)
		stmt.Close()
		return kept.(*sql.Stmt), true, nil
	}
	return stmt, true, nil
}

// preparedRows runs a read, through its kept prepared statement when keep; the caller closes the rows.
func preparedRows(db *sql.DB, keep bool, query string, args ...any) (*sql.Rows, error) {
	if !keep {
		return db.Query(query, args...)
	}
	stmt, kept, err := preparedStatement(db, query)
	if err != nil {
		return nil, err
	}
	if !kept {
		defer stmt.Close()
	}
	return stmt.Query(args...)
}

// preparedRow scans the first row of a read into dest; sql.ErrNoRows when there is none.
func preparedRow(db *sql.DB, query string, keep bool, args []any, dest ...any) error {
	rows, err := preparedRows(db, keep, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	return rows.Close()
}
