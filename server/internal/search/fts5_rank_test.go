package search

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// rankTestDB is an in-memory database (the driver PocketBase uses, so the connection hook has run) holding an FTS5
// table like answer_search of seeded random texts.
func rankTestDB(t *testing.T) *sql.DB {
	t.Helper()
	db := docsTestDB(t, "file:rank?mode=memory&cache=shared")
	words := strings.Fields("customer support team hiring kubernetes remote product design answer question video review " +
		"manager candidate interview time great experience people build work")
	random := rand.New(rand.NewSource(7))
	for i := 1; i <= 400; i++ {
		n := 5 + random.Intn(60)
		text := make([]string, n)
		for j := range text {
			text[j] = words[random.Intn(len(words))]
		}
		mustExec(t, db, `INSERT INTO docs (rowid, body) VALUES (?, ?)`, i, strings.Join(text, " "))
	}
	return db
}

// docsTestDB opens the database at dsn (closed when the test ends), on one connection, with an empty FTS5 table
// `docs` tokenized as answer_search is.
func docsTestDB(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	mustExec(t, db, `CREATE VIRTUAL TABLE docs USING fts5(body, tokenize = 'porter unicode61 remove_diacritics 2')`)
	return db
}

func mustExec(t *testing.T, db *sql.DB, query string, args ...any) {
	t.Helper()
	if _, err := db.Exec(query, args...); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
}

type scored struct {
	rowid int64
	score float64
}

func ranked(t *testing.T, db *sql.DB, query string, args ...any) []scored {
	t.Helper()
	rows, err := db.Query(query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	var out []scored
	for rows.Next() {
		var s scored
		if err := rows.Scan(&s.rowid, &s.score); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// bm25IDF is FTS5's IDF of a phrase matching n of N rows (fts5_aux.c): log((N - n + 0.5) / (n + 0.5)), at least 1e-6.
func bm25IDF(t *testing.T, db *sql.DB, phrase string) float64 {
	t.Helper()
	var total, n float64
	if err := db.QueryRow(`SELECT count(*) FROM docs`).Scan(&total); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM docs WHERE docs MATCH ?`, phrase).Scan(&n); err != nil {
		t.Fatal(err)
	}
	idf := math.Log((total - n + 0.5) / (n + 0.5))
	if idf <= 0 {
		idf = 1e-6
	}
	return idf
}

// Given bm25's own IDFs as the weights, the function is bm25: the same score for every row, to rounding.
func TestRankIsBm25WithTheGivenWeights(t *testing.T) {
	db := rankTestDB(t)
	for _, match := range []string{`"kubernetes"`, `"customer support"`, `"customer" AND "hiring"`, `"great" AND "remote work" AND "video"`} {
		phrases := strings.Split(match, " AND ")
		weights := make([]string, len(phrases))
		for i, phrase := range phrases {
			weights[i] = fmt.Sprintf("%.17g", bm25IDF(t, db, phrase))
		}
		ours := ranked(t, db, fmt.Sprintf(`SELECT rowid, screenroom_rank(docs, %s) FROM docs WHERE docs MATCH ? ORDER BY rowid`, strings.Join(weights, ", ")), match)
		theirs := ranked(t, db, `SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY rowid`, match)
		if len(ours) == 0 || len(ours) != len(theirs) {
			t.Fatalf("%s: %d rows ranked, bm25 %d", match, len(ours), len(theirs))
		}
		for i := range ours {
			if ours[i].rowid != theirs[i].rowid || math.Abs(ours[i].score-theirs[i].score) > 1e-9*math.Max(1, math.Abs(theirs[i].score)) {
				t.Fatalf("%s: row %d scored %v, bm25 %v", match, ours[i].rowid, ours[i].score, theirs[i].score)
			}
		}
	}
}

// One phrase needs no weight: unweighted, the order is bm25's (its IDF is common to every row).
func TestRankOfOnePhraseOrdersAsBm25(t *testing.T) {
	db := rankTestDB(t)
	for _, match := range []string{`"kubernetes"`, `"customer support"`, `"interview"`} {
		ours := ranked(t, db, `SELECT rowid, screenroom_rank(docs) FROM docs WHERE docs MATCH ? ORDER BY screenroom_rank(docs), rowid DESC`, match)
		theirs := ranked(t, db, `SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY bm25(docs), rowid DESC`, match)
		if len(ours) < 5 || len(ours) != len(theirs) {
			t.Fatalf("%s: %d rows ranked, bm25 %d", match, len(ours), len(theirs))
		}
		for i := range ours {
			if ours[i].rowid != theirs[i].rowid {
				t.Fatalf("%s: position %d is row %d, bm25's %d", match, i, ours[i].rowid, theirs[i].rowid)
			}
		}
	}
}

// The weights decide between phrases: a row full of one word and a row full of the other swap places when the
// weights swap.
func TestRankWeighsEachPhraseByItsArgument(t *testing.T) {
	db := rankTestDB(t)
	mustExec(t, db, `INSERT INTO docs (rowid, body) VALUES (1001, 'zebra zebra zebra zebra okapi'), (1002, 'okapi okapi okapi okapi zebra')`)
	first := func(weights string) int64 {
		rows := ranked(t, db, fmt.Sprintf(`SELECT rowid, screenroom_rank(docs, %s) FROM docs WHERE docs MATCH '"zebra" AND "okapi"' ORDER BY 2`, weights))
		if len(rows) != 2 {
			t.Fatalf("weights %s: %d rows", weights, len(rows))
		}
		return rows[0].rowid
	}
	if got := first("3.0, 0.5"); got != 1001 {
		t.Fatalf("zebra weighed more: first %d, want 1001", got)
	}
	if got := first("0.5, 3.0"); got != 1002 {
		t.Fatalf("okapi weighed more: first %d, want 1002", got)
	}
}

// Every connection of a pool has the function (PocketBase reads on several at once).
func TestRankOnEveryConnection(t *testing.T) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(4)
	ctx := context.Background()
	var conns []*sql.Conn
	for range 4 {
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, conn)
	}
	for i, conn := range conns {
		if _, err := conn.ExecContext(ctx, `CREATE VIRTUAL TABLE t USING fts5(body)`); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.ExecContext(ctx, `INSERT INTO t (body) VALUES ('hello world')`); err != nil {
			t.Fatal(err)
		}
		var score float64
		if err := conn.QueryRowContext(ctx, `SELECT screenroom_rank(t) FROM t WHERE t MATCH 'hello'`).Scan(&score); err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		if score >= 0 {
			t.Fatalf("connection %d: score %v, want < 0", i, score)
		}
		conn.Close()
	}
}
