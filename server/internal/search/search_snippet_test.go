package search

import (
	"database/sql"
	"math/rand"
	"strings"
	"testing"
)

// snippetTestDB is an in-memory FTS5 table like answer_search holding seeded random texts with what a transcript or a
// typed answer holds between and inside its words: sentences, colons, commas, line breaks, apostrophes, hyphens,
// digits, accented letters (composed and combining), other scripts and symbols.
func snippetTestDB(t *testing.T, seed int64) *sql.DB {
	t.Helper()
	db := docsTestDB(t, ":memory:")
	words := strings.Fields("customer customers support supported team hiring kubernetes remote product design answer " +
		"question video review manager candidate interview time great experience people build work café naïve " +
		"nai\u0308ve don't well-known 2024 x86_64 über Straße résumé東京 данные ﬁnance ½ ① e-mail C++ $100 «quoted» 「引用」 a I")
	between := []string{" ", " ", " ", " ", ", ", ". ", ".  ", ": ", "! ", "? ", "\n", "\n\n", " - ", " — ", "…", " (", ") ", "\t", ".\n", ":"}
	random := rand.New(rand.NewSource(seed))
	for i := 1; i <= 600; i++ {
		var text strings.Builder
		if random.Intn(4) == 0 {
			text.WriteString(between[random.Intn(len(between))])
		}
		n := 1 + random.Intn(90)
		for j := 0; j < n; j++ {
			if j > 0 {
				text.WriteString(between[random.Intn(len(between))])
			}
			text.WriteString(words[random.Intn(len(words))])
		}
		if random.Intn(3) == 0 {
			text.WriteString(between[random.Intn(len(between))])
		}
		mustExec(t, db, `INSERT INTO docs (rowid, body) VALUES (?, ?)`, i, text.String())
	}
	return db
}

// searchSnippet makes, for every row of every query, what snippet(…, 0, char(2), char(3), '…', 24) makes.
func TestSearchSnippetIsFts5Snippet(t *testing.T) {
	queries := []string{
		`"customer"`, `"support"`, `"kubernetes"`, `"cafe"`, `"naive"`, `"resume"`, `"don"`, `"t"`, `"2024"`, `"a"`,
		`"customer" AND "support"`, `"customer support"`, `"support" AND "team" AND "hiring"`,
		`"great experience" AND "people"`, `"well known"`, `"x86" AND "64"`, `"e mail" AND "video"`,
		`"time" AND "time great"`, `"customer customer"`, `"über"`, `"strasse"`, `"東京"`, `"данные"`,
	}
	for _, seed := range []int64{1, 2, 3} {
		db := snippetTestDB(t, seed)
		rows, compared, unmade := 0, 0, 0
		for _, query := range queries {
			ticket, notes, closeNotes := newRankNotes()
			result, err := db.Query(`SELECT rowid, body, screenroom_rank_noted(docs, ?2, 1.5, 0.7),
				snippet(docs, 0, char(2), char(3), '…', 24) FROM docs WHERE docs MATCH ?1 ORDER BY rowid`, query, ticket)
			if err != nil {
				t.Fatalf("%s: %v", query, err)
			}
			type row struct {
				id            int64
				body, snippet string
			}
			var found []row
			for result.Next() {
				var r row
				var score float64
				if err := result.Scan(&r.id, &r.body, &score, &r.snippet); err != nil {
					t.Fatal(err)
				}
				found = append(found, r)
			}
			if err := result.Err(); err != nil {
				t.Fatal(err)
			}
			result.Close()
			closeNotes()
			for _, r := range found {
				rows++
				noted, ok := notes.row(r.id)
				if !ok {
					t.Fatalf("%s: row %d was ranked but not noted", query, r.id)
				}
				made, ok := searchSnippet(r.body, noted, notes.phraseSizes)
				if !ok {
					unmade++
					continue
				}
				compared++
				if made != r.snippet {
					t.Errorf("seed %d, %s, row %d (%q):\n  made    %q\n  snippet %q", seed, query, r.id, r.body, made, r.snippet)
				}
			}
		}
		if rows < 1000 || unmade != 0 {
			t.Fatalf("seed %d: %d rows, %d compared, %d left to snippet()", seed, rows, compared, unmade)
		}
		t.Logf("seed %d: %d rows compared", seed, compared)
	}
}

// Every character fts5KnownSeparator names, and the token characters around them, split here as FTS5 splits them:
// each between two letters, and alone between spaces, gives as many tokens here as FTS5 stored.
func TestFts5TokenizeSplitsKnownCharactersAsFts5(t *testing.T) {
	db := docsTestDB(t, ":memory:")
	var texts []string
	add := func(r rune) {
		texts = append(texts, "zz a"+string(r)+"b", "zz "+string(r)+" b", "zz "+string(r)+string(r))
	}
	for r := rune(1); r < 0x3040; r++ {
		if r < 0x80 || fts5KnownSeparator(r) {
			add(r)
		}
	}
	// letters and numbers of other scripts, and combining marks after a letter
	for _, r := range "éßøłЖжΩω東京가한אعहक①½²ﬁ" {
		add(r)
	}
	for r := rune(0x300); r < 0x370; r++ {
		texts = append(texts, "zz e"+string(r)+"x")
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		if _, err := tx.Exec(`INSERT INTO docs (rowid, body) VALUES (?, ?)`, i+1, text); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	ticket, notes, closeNotes := newRankNotes()
	rows, err := db.Query(`SELECT rowid, screenroom_rank_noted(docs, ?1) FROM docs WHERE docs MATCH 'zz'`, ticket)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		var score float64
		if err := rows.Scan(&id, &score); err != nil {
			t.Fatal(err)
		}
	}
	rows.Close()
	closeNotes()
	if len(notes.rows) != len(texts) {
		t.Fatalf("%d of %d texts noted", len(notes.rows), len(texts))
	}
	for i, text := range texts {
		tokens, _, ok := fts5Tokenize(text)
		row, _ := notes.row(int64(i + 1))
		if want := row.size; !ok || int32(len(tokens)) != want {
			t.Errorf("%q (%U): %d tokens here (ok %v), %d in FTS5", text, []rune(text), len(tokens), ok, want)
		}
	}
}

// A text whose tokens here are not the ones FTS5 counted, or that holds a character SQLite may split otherwise, is left
// to snippet(), not marked in the wrong places.
func TestSearchSnippetRefusesOtherTokens(t *testing.T) {
	if _, ok := searchSnippet("great 🙂 one", rankedRow{size: 3, instances: []rankInstance{{0, 0}}}, []int32{1}); ok {
		t.Fatal("an emoji (a token in FTS5): made a snippet")
	}
	if _, ok := searchSnippet("great \xff one", rankedRow{size: 2, instances: []rankInstance{{0, 0}}}, []int32{1}); ok {
		t.Fatal("a text that is not UTF-8: made a snippet")
	}
	row := rankedRow{size: 3, instances: []rankInstance{{0, 1}}}
	if _, ok := searchSnippet("one two three four", row, []int32{1}); ok {
		t.Fatal("four tokens here, three in FTS5: made a snippet")
	}
	if made, ok := searchSnippet("one two three", row, []int32{1}); !ok || made != "one \x02two\x03 three" {
		t.Fatalf("got %q, %v", made, ok)
	}
	if _, ok := searchSnippet("one two three", rankedRow{size: 3, instances: []rankInstance{{1, 1}}}, []int32{1}); ok {
		t.Fatal("a phrase the query does not have: made a snippet")
	}
}

// The rows a query ranks with screenroom_rank_noted are noted under its own ticket only, and a ticket no longer open
// (or never opened) notes nothing and ranks as screenroom_rank does.
func TestRankNotedRanksAsRankAndNotesItsOwnTicket(t *testing.T) {
	db := snippetTestDB(t, 4)
	ticket, notes, closeNotes := newRankNotes()
	_, otherNotes, closeOther := newRankNotes()
	defer closeOther()
	var differ int
	err := db.QueryRow(`SELECT count(*) FROM docs WHERE docs MATCH '"customer" AND "support"'
		AND screenroom_rank_noted(docs, ?1, 2.0, 0.5) != screenroom_rank(docs, 2.0, 0.5)`, ticket).Scan(&differ)
	closeNotes()
	if err != nil || differ != 0 {
		t.Fatalf("%d rows ranked otherwise (%v)", differ, err)
	}
	var matched int
	if err := db.QueryRow(`SELECT count(*) FROM docs WHERE docs MATCH '"customer" AND "support"'`).Scan(&matched); err != nil {
		t.Fatal(err)
	}
	if matched == 0 || len(notes.rows) != matched || len(otherNotes.rows) != 0 {
		t.Fatalf("matched %d, noted %d on the ticket, %d on another", matched, len(notes.rows), len(otherNotes.rows))
	}
	if len(notes.phraseSizes) != 2 || notes.phraseSizes[0] != 1 || notes.phraseSizes[1] != 1 {
		t.Fatalf("phrase sizes %v", notes.phraseSizes)
	}
	if err := db.QueryRow(`SELECT count(*) FROM docs WHERE docs MATCH '"customer"'
		AND screenroom_rank_noted(docs, ?1) != screenroom_rank(docs)`, ticket).Scan(&differ); err != nil || differ != 0 {
		t.Fatalf("a closed ticket: %d rows ranked otherwise (%v)", differ, err)
	}
	if _, ok := rankNoteBook.Load(ticket); ok {
		t.Fatal("the closed ticket is still in the book")
	}
}
