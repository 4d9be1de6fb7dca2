package search

import (
	"screenroom/server/internal/platform"

	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/pocketbase/dbx"
	"github.com/pocketbase/pocketbase/core"
)

// Transcript search (issue 18 point 3): GET /api/screenroom/companies/{id}/search?q=…&offset=…, the managers' search
// across the transcripts and text answers of one company's candidates, over the FTS5 table answer_search (migration
// 1733100000_answer_search.js, kept in step by triggers). For the company's managers only, as the review is
// (decisions.md "Access model"): anyone else, signed in or not, gets the same 404 whether the company exists or not.
// 200 {items, more}; an empty or wordless q gives no items.
//
// In Go rather than a JS hook: a search is a handful of statements and twenty hits, and in the hooks' JS engine the
// route's own work (a VM from the pool, the hits as JS values and back to JSON) cost as much as its SQL.
//
// Syntax (README "Search"): words, all of which must appear (any form of a word: "hiring" finds "hired"), and
// "quoted phrases", whose words must appear in that order. Nothing else is syntax: FTS5's operators (OR, NOT, NEAR,
// *, ^, column filters) typed by a manager are plain words here, so no input can widen a search beyond its company
// or make the query fail.

const (
	searchMaxQueryChars = 200 // UTF-16 code units, as the client counts them
	searchMaxTerms      = 12
	// 20 a page (README "Search across answers")
	searchPageSize = 20
	// 2^32 docids per company (migration 1733100000_answer_search.js)
	searchRange = int64(1) << 32
	// how many of a term's newest matches in the company its weight is estimated from (searchWeights)
	searchWeightSample = 200
)

func registerSearch(app core.App) {
	app.OnServe().BindFunc(func(se *core.ServeEvent) error {
		se.Router.GET("/api/screenroom/companies/{id}/search", searchRoute)
		return se.Next()
	})
}

func searchRoute(e *core.RequestEvent) error {
	companyID := e.Request.PathValue("id")
	info, err := e.RequestInfo()
	if err != nil || !platform.ManagesCompany(e.App, companyID, platform.RequestUserID(e)) {
		return e.NotFoundError("The requested resource wasn't found.", nil)
	}

	offset := 0
	if text := info.Query["offset"]; searchOffsetPattern.MatchString(text) {
		offset, _ = strconv.Atoi(text)
	}
	// the read pool's own database/sql handle (its connections keep the search's statements: kept_statements.go)
	pool, ok := e.App.ConcurrentDB().(*dbx.DB)
	if !ok {
		return fmt.Errorf("search: the app's read pool is a %T", e.App.ConcurrentDB())
	}
	result, err := searchCompany(pool.DB(), companyID, parseSearchQuery(info.Query["q"]), offset)
	if err != nil {
		return err
	}
	return e.JSON(200, result)
}

var searchOffsetPattern = regexp.MustCompile(`^\d{1,6}$`)

// isSearchSeparator: what lies between words: spaces, ASCII punctuation and the common Unicode punctuation and
// symbols (FTS5's unicode61 tokenizer splits each quoted word again by its own tables).
func isSearchSeparator(r rune) bool {
	switch {
	case r <= 0x2f, r >= 0x3a && r <= 0x40, r >= 0x5b && r <= 0x60, r >= 0x7b && r <= 0xbf, r == 0xd7, r == 0xf7,
		r >= 0x2000 && r <= 0x206f, r >= 0x20a0 && r <= 0x2bff, r >= 0x3000 && r <= 0x303f,
		r >= 0xfe30 && r <= 0xfe4f, r >= 0xff00 && r <= 0xff0f:
		return true
	}
	return isSpace(r)
}

func isSpace(r rune) bool {
	switch r {
	case 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r <= 0x20 || (r >= 0x2000 && r <= 0x200a)
}

// searchWords: the words of a piece of text, lower-cased.
func searchWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), isSearchSeparator)
}

// parseSearchQuery: the search's terms, each a list of words (one word, or a phrase's words in order), phrases
// first, then the words outside the quotes; no term twice, at most searchMaxTerms. Empty when nothing searchable
// was typed.
func parseSearchQuery(raw string) [][]string {
	// the first searchMaxQueryChars UTF-16 code units
	units := 0
	for i, r := range raw {
		units += len(utf16.Encode([]rune{r}))
		if units > searchMaxQueryChars {
			raw = raw[:i]
			break
		}
	}
	var terms [][]string
	seen := map[string]bool{}
	add := func(words []string) {
		if len(words) == 0 {
			return
		}
		key := strings.Join(words, " ")
		if seen[key] {
			return
		}
		seen[key] = true
		terms = append(terms, words)
	}
	// a quote opens a phrase that runs to the next quote or to the end
	var rest strings.Builder
	for text := raw; ; {
		open := strings.IndexByte(text, '"')
		if open < 0 {
			rest.WriteString(text)
			break
		}
		rest.WriteString(text[:open])
		rest.WriteByte(' ')
		text = text[open+1:]
		end := strings.IndexByte(text, '"')
		if end < 0 {
			add(searchWords(text))
			break
		}
		add(searchWords(text[:end]))
		text = text[end+1:]
	}
	for _, word := range searchWords(rest.String()) {
		add([]string{word})
	}
	if len(terms) > searchMaxTerms {
		terms = terms[:searchMaxTerms]
	}
	return terms
}

// searchMatch: the FTS5 MATCH expression of the terms: only quoted tokens (a word holds no quote), so nothing in
// them is syntax.
func searchMatch(terms [][]string) string {
	quoted := make([]string, len(terms))
	for i, words := range terms {
		quoted[i] = `"` + strings.Join(words, " ") + `"`
	}
	return strings.Join(quoted, " AND ")
}

type docRange struct{ lo, hi int64 }

// searchCompanyRange: the company's range of docids; ok false when it has nothing indexed.
func searchCompanyRange(db *sql.DB, companyID string) (docRange, bool, error) {
	var idx int64
	err := db.QueryRow("SELECT idx FROM answer_search_companies WHERE company = ?", companyID).Scan(&idx)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && idx <= 0) {
		return docRange{}, false, nil
	}
	if err != nil {
		return docRange{}, false, err
	}
	return docRange{idx * searchRange, idx*searchRange + searchRange - 1}, true, nil
}

// searchWeights: each term's weight in the ranking (screenroom_rank, fts5_rank.go): its IDF,
// ln(1 + (N − n + 0.5) / (n + 0.5)), N the company's answers and n those holding the term, n estimated from the
// term's newest searchWeightSample matches in the company: exact when it has fewer, else the sample over the share
// of the company's answers it spans. bm25's own IDF counts every match in the whole index (all companies) on every
// search, the largest part of a common word's search time; this costs a walk of at most searchWeightSample matches
// and weighs words by how common they are in the company's recent answers. One term needs no weight (a weight
// common to every row changes no order): none.
func searchWeights(db *sql.DB, terms [][]string, r docRange) ([]float64, error) {
	if len(terms) < 2 {
		return nil, nil
	}
	// how many answers the company has had indexed: docids are given in order within its range
	var top int64
	if err := db.QueryRow("SELECT coalesce(max(docid), 0) FROM answer_search_docs WHERE docid BETWEEN ? AND ?", r.lo, r.hi).Scan(&top); err != nil {
		return nil, err
	}
	answers := max(1, top-r.lo)
	weights := make([]float64, len(terms))
	for i, words := range terms {
		var found, oldest int64
		err := db.QueryRow(`SELECT count(*), coalesce(min(docid), 0)
			FROM (SELECT rowid AS docid FROM answer_search
			      WHERE answer_search MATCH ?1 AND rowid BETWEEN ?2 AND ?3
			      ORDER BY rowid DESC LIMIT `+strconv.Itoa(searchWeightSample)+`)`, searchMatch([][]string{words}), r.lo, r.hi).Scan(&found, &oldest)
		if err != nil {
			return nil, err
		}
		var share float64
		if found < searchWeightSample {
			share = float64(found) / float64(answers)
		} else {
			// the newest answer is number `answers` of the range: the sample spans from its oldest match to it
			spanned := r.lo + answers - oldest + 1
			share = float64(searchWeightSample) / float64(max(searchWeightSample, spanned))
		}
		holding := share * float64(answers)
		weights[i] = math.Log(1 + (float64(answers)-holding+0.5)/(holding+0.5))
	}
	return weights, nil
}

// searchRankWindow: how many matches are ranked together (README "Search"): the newest window of the company's
// matches, best first, then the next, and so on. bm25 over every match costs time in proportion to the matches (a
// common word in a large company: tens of thousands); over a window it costs the same at any size of company.
// SEARCH_RANK_WINDOW (default 200, 1-100000) changes it.
func searchRankWindow() int {
	if value, err := strconv.Atoi(os.Getenv("SEARCH_RANK_WINDOW")); err == nil && value >= 1 && value <= 100000 {
		return value
	}
	return 200
}

// searchNthNewest: the docid of the company's n-th newest match (0 = the newest); ok false when there are n or
// fewer. FTS5 walks its lists in rowid order from the top of the range without ranking anything.
func searchNthNewest(db *sql.DB, match string, r docRange, n int) (int64, bool, error) {
	var docid int64
	err := db.QueryRow(`SELECT rowid FROM answer_search
		WHERE answer_search MATCH ?1 AND rowid BETWEEN ?2 AND ?3
		ORDER BY rowid DESC LIMIT 1 OFFSET `+strconv.Itoa(n), match, r.lo, r.hi).Scan(&docid)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return docid, true, nil
}

type searchHit struct {
	Docid                                                                                  int64
	Kind, Answer, Question, QuestionTitle, Candidate, Email, Job, JobTitle, Segments, Text string
}

// searchWindow: the hits of one window (the company's newest windowSize matches from its windowStart-th newest, in
// one walk of FTS5's lists from the top of the range, which stops at the window's end), best first (bm25 with the
// terms' weights: screenroom_rank; then newest), limit from offset within the window, each with what it names: a
// row whose answer, question, candidate or job is gone (mid-delete) has no answer and is counted but not shown.
// The ranking function runs for the window's rows only, and notes their matches in notes (the ticket's), from which
// each hit's snippet is made with its text (searchSnippet); snippet() runs for none.
func searchWindow(db *sql.DB, match string, weights []float64, companyID string, r docRange, windowStart, windowSize, limit, offset int, ticket int64) ([]searchHit, error) {
	// ?1-?5, then the weights; the limits are written into the SQL: SQLite plans a statement again on every run
	// when a bound value limits a virtual table's rows (a fifth of the search's time)
	args := []any{match, r.lo, r.hi, companyID, ticket}
	var weightArgs strings.Builder
	for _, weight := range weights {
		args = append(args, weight)
		fmt.Fprintf(&weightArgs, ", ?%d", len(args))
	}
	rows, err := db.Query(`SELECT s.docid, coalesce(d.kind, ''), coalesce(a.id, ''),
		    coalesce(q.id, ''), coalesce(nullif(a.questionTitle, ''), q.title, ''),
		    coalesce(c.id, ''), coalesce(c.email, ''),
		    coalesce(j.id, ''), coalesce(j.title, ''),
		    coalesce(CASE WHEN d.kind = 'video' THEN (SELECT v.transcriptSegments FROM video_answers v WHERE v.id = d.record) END, ''),
		    coalesce(t.c0, '')
		FROM (SELECT docid, score
		      FROM (SELECT rowid AS docid, screenroom_rank_noted(answer_search, ?5`+weightArgs.String()+`) AS score
		            FROM answer_search
		            WHERE answer_search MATCH ?1 AND rowid BETWEEN ?2 AND ?3
		            ORDER BY rowid DESC LIMIT `+strconv.Itoa(windowSize)+` OFFSET `+strconv.Itoa(windowStart)+`)
		      ORDER BY score, docid DESC LIMIT `+strconv.Itoa(limit)+` OFFSET `+strconv.Itoa(offset)+`) s
		JOIN answer_search_docs d ON d.docid = s.docid AND d.company = ?4
		LEFT JOIN answer_search_content t ON t.id = s.docid
		LEFT JOIN answers a ON a.id = d.answer
		LEFT JOIN questions q ON q.id = a.question
		LEFT JOIN candidates c ON c.id = a.candidate
		LEFT JOIN jobs j ON j.id = c.job
		ORDER BY s.score, s.docid DESC`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []searchHit
	for rows.Next() {
		var hit searchHit
		if err := rows.Scan(&hit.Docid, &hit.Kind, &hit.Answer, &hit.Question, &hit.QuestionTitle, &hit.Candidate, &hit.Email, &hit.Job, &hit.JobTitle, &hit.Segments, &hit.Text); err != nil {
			return nil, err
		}
		hits = append(hits, hit)
	}
	return hits, rows.Err()
}

// searchSnippets: the snippet of each of the docids, by docid, from FTS5's snippet(): up to 24 words around the
// matches, char(2) and char(3) around each; for the hits whose snippet searchSnippet could not make (a text with an
// emoji, say). The rowid range bounds FTS5's walk to the page's span of matches; the list itself is a
// filter (`+rowid`), since a rowid IN constraint makes FTS5 walk every match.
func searchSnippets(db *sql.DB, match string, docids []int64) (map[int64]string, error) {
	byDocid := make(map[int64]string, len(docids))
	if len(docids) == 0 {
		return byDocid, nil
	}
	lo, hi := docids[0], docids[0]
	args := []any{match, 0, 0}
	marks := make([]string, len(docids))
	for i, id := range docids {
		lo, hi = min(lo, id), max(hi, id)
		args = append(args, id)
		marks[i] = "?" + strconv.Itoa(len(args))
	}
	args[1], args[2] = lo, hi
	rows, err := db.Query(`SELECT rowid, snippet(answer_search, 0, char(2), char(3), '…', 24)
		FROM answer_search
		WHERE answer_search MATCH ?1 AND rowid BETWEEN ?2 AND ?3 AND +rowid IN (`+strings.Join(marks, ",")+`)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var docid int64
		var snippet string
		if err := rows.Scan(&docid, &snippet); err != nil {
			return nil, err
		}
		byDocid[docid] = snippet
	}
	return byDocid, rows.Err()
}

// searchSegmentStart: the first transcript segment that holds one of the terms' first words, as the second to start
// the video at; nil without segments or when none holds it (the stemmed match may be in another form of the word:
// a word matches a form of itself on the first letters the stemmer keeps, at least four).
func searchSegmentStart(segmentsJSON string, terms [][]string) *float64 {
	var segments []any
	if segmentsJSON == "" || json.Unmarshal([]byte(segmentsJSON), &segments) != nil {
		return nil
	}
	wanted := make([]string, len(terms))
	stems := make([]string, len(terms))
	for i, words := range terms {
		wanted[i] = words[0]
		letters := []rune(words[0])
		stems[i] = string(letters[:max(min(4, len(letters)), len(letters)-3)])
	}
	for _, value := range segments {
		segment, _ := value.(map[string]any)
		start, isNumber := segment["start"].(float64)
		if !isNumber {
			continue
		}
		text, _ := segment["text"].(string)
		words := searchWords(text)
		for i := range wanted {
			for _, word := range words {
				if word == wanted[i] || (len([]rune(word)) >= 4 && strings.HasPrefix(word, stems[i])) {
					return &start
				}
			}
		}
	}
	return nil
}

type searchItem struct {
	Answer       string          `json:"answer"`
	Kind         string          `json:"kind"`
	Candidate    searchCandidate `json:"candidate"`
	Job          searchTitled    `json:"job"`
	Question     searchTitled    `json:"question"`
	Snippet      string          `json:"snippet"`
	StartSeconds *float64        `json:"startSeconds"`
}

type searchCandidate struct {
	ID    string `json:"id"`
	Email string `json:"email"`
}

type searchTitled struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

type searchResult struct {
	Items []searchItem `json:"items"`
	More  bool         `json:"more"`
}

// searchCompany: the company's hits for the terms, best first within each window of the newest matches
// (searchRankWindow), at most searchPageSize from offset; More when there are others after them. Each hit: the
// answer, its kind, candidate (id, e-mail), job (id, title), question (id, title, as the candidate was asked it: the
// answer's snapshot, issue 16), a snippet with char(2) / char(3) around each match, and for a video answer the
// second its match starts at.
func searchCompany(db *sql.DB, companyID string, terms [][]string, offset int) (searchResult, error) {
	empty := searchResult{Items: []searchItem{}}
	if len(terms) == 0 {
		return empty, nil
	}
	r, ok, err := searchCompanyRange(db, companyID)
	if err != nil || !ok {
		return empty, err
	}
	match := searchMatch(terms)
	weights, err := searchWeights(db, terms, r)
	if err != nil {
		return empty, err
	}
	windowSize := searchRankWindow()
	var page []searchHit
	more := false
	// the matches the ranking noted of each hit, and each phrase's tokens (the same in every window)
	noted := make(map[int64]rankedRow, searchPageSize)
	var phraseSizes []int32
	for position := offset; ; {
		index := position / windowSize
		within := position - index*windowSize
		need := searchPageSize - len(page)
		ticket, notes, closeNotes := newRankNotes()
		found, err := searchWindow(db, match, weights, companyID, r, index*windowSize, windowSize, need+1, within, ticket)
		closeNotes()
		if err != nil {
			return empty, err
		}
		for _, hit := range found {
			if row, ok := notes.row(hit.Docid); ok {
				noted[hit.Docid] = row
			}
		}
		if notes.phraseSizes != nil {
			phraseSizes = notes.phraseSizes
		}
		if len(found) > need {
			page = append(page, found[:need]...)
			more = true
			break
		}
		page = append(page, found...)
		// the window ended before the page did: the next window, if this one was whole and another match follows it
		if within+len(found) < windowSize {
			break
		}
		_, next, err := searchNthNewest(db, match, r, (index+1)*windowSize)
		if err != nil {
			return empty, err
		}
		if len(page) == searchPageSize || !next {
			more = next
			break
		}
		position = (index + 1) * windowSize
	}
	if len(page) == 0 {
		return empty, nil
	}
	snippets := make(map[int64]string, len(page))
	var unmade []int64
	for _, hit := range page {
		row, ok := noted[hit.Docid]
		snippet := ""
		if ok {
			snippet, ok = searchSnippet(hit.Text, row, phraseSizes)
		}
		if ok {
			snippets[hit.Docid] = snippet
		} else {
			unmade = append(unmade, hit.Docid)
		}
	}
	if len(unmade) > 0 {
		made, err := searchSnippets(db, match, unmade)
		if err != nil {
			return empty, err
		}
		maps.Copy(snippets, made)
	}
	result := searchResult{Items: make([]searchItem, 0, len(page)), More: more}
	for _, hit := range page {
		if hit.Answer == "" || hit.Question == "" || hit.Candidate == "" || hit.Job == "" {
			continue
		}
		item := searchItem{
			Answer:    hit.Answer,
			Kind:      hit.Kind,
			Candidate: searchCandidate{ID: hit.Candidate, Email: hit.Email},
			Job:       searchTitled{ID: hit.Job, Title: hit.JobTitle},
			Question:  searchTitled{ID: hit.Question, Title: hit.QuestionTitle},
			Snippet:   snippets[hit.Docid],
		}
		if hit.Kind == "video" {
			item.StartSeconds = searchSegmentStart(hit.Segments, terms)
		}
		result.Items = append(result.Items, item)
	}
	return result, nil
}
