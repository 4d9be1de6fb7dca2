// The transcript search's ranking function (issue 18): `screenroom_rank(answer_search, w0, w1, …)`, an FTS5
// auxiliary function registered on every SQLite connection, for `ORDER BY` in search.go.
//
// It is FTS5's own bm25 (fts5_aux.c, k1 = 1.2, b = 0.75, lower is better) with each phrase's weight given by the
// caller instead of computed. bm25 computes a phrase's IDF by walking every match of the phrase in the whole index
// (xQueryPhrase), which is most of a search's time for a common word or phrase and grows with the data: 3.6 ms of
// 6 for the bench's common phrase at 14,000 answers, at any window size. The search route estimates each phrase's
// weight from the company's own newest matches instead, at a bounded cost (README "Search across answers"), and for
// a single phrase needs none: a weight common to every row changes no row's order.
//
// FTS5 has no Go API: the function is given to SQLite through the `fts5_api` the driver's translated C code exposes
// (modernc.org/sqlite/lib), the same way the driver itself registers its virtual tables. A function pointer there is
// a Go func value's address (cFuncPointer below), as in the translated code.
package search

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"modernc.org/libc"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

const rankFunctionName = "screenroom_rank"

// rankNotedFunctionName is the same ranking, which also notes each row's matches for the row's snippet
// (search_snippet.go): screenroom_rank_noted(table, ticket, weights...), ticket a key of rankNoteBook. Its xUserData
// is rankNotedUserData.
const rankNotedFunctionName = "screenroom_rank_noted"

const rankNotedUserData = 1

// rankNotes is what screenroom_rank_noted noted during one query: each ranked row's matches (all rows' in one slice,
// in turn) and token count, and each phrase's length in tokens. One query fills it, on the goroutine that steps it.
type rankNotes struct {
	phraseSizes []int32
	instances   []rankInstance
	rows        []notedRow
}

type notedRow struct {
	rowid    int64
	size     int32
	from, to int // its matches: instances[from:to]
}

// row is what was noted of the row rowid, if it was ranked.
func (notes *rankNotes) row(rowid int64) (rankedRow, bool) {
	for _, noted := range notes.rows {
		if noted.rowid == rowid {
			return rankedRow{size: noted.size, instances: notes.instances[noted.from:noted.to]}, true
		}
	}
	return rankedRow{}, false
}

var (
	rankNoteBook    sync.Map // ticket (int64) → *rankNotes
	rankNoteTickets atomic.Int64
)

// newRankNotes opens a book for one query's notes: its ticket, the notes, and the function that closes it.
func newRankNotes() (int64, *rankNotes, func()) {
	ticket := rankNoteTickets.Add(1)
	notes := &rankNotes{}
	rankNoteBook.Store(ticket, notes)
	return ticket, notes, func() { rankNoteBook.Delete(ticket) }
}

func init() {
	sqlite.RegisterConnectionHook(func(conn sqlite.ExecQuerierContext, _ string) error {
		db, tls, err := rawConnection(conn)
		if err != nil {
			return err
		}
		return registerRankFunction(tls, db)
	})
}

// rawConnection is the driver connection's SQLite handle and its C thread state (unexported fields of
// modernc.org/sqlite's conn: `db uintptr`, `tls *libc.TLS`).
func rawConnection(conn any) (uintptr, *libc.TLS, error) {
	value := reflect.ValueOf(conn)
	if value.Kind() != reflect.Pointer || value.Elem().Kind() != reflect.Struct {
		return 0, nil, fmt.Errorf("%s: unexpected driver connection %T", rankFunctionName, conn)
	}
	fields := value.Elem()
	db := fields.FieldByName("db")
	tls := fields.FieldByName("tls")
	if !db.IsValid() || db.Kind() != reflect.Uintptr || !tls.IsValid() || tls.Type() != reflect.TypeOf((*libc.TLS)(nil)) {
		return 0, nil, fmt.Errorf("%s: modernc.org/sqlite's connection has changed shape", rankFunctionName)
	}
	return uintptr(db.Uint()), (*libc.TLS)(tls.UnsafePointer()), nil
}

// cFuncPointer is a Go function as the translated C code calls it (modernc.org/sqlite's own helper of that name).
func cFuncPointer[T any](f T) uintptr {
	return *(*uintptr)(unsafe.Pointer(&struct{ f T }{f}))
}

// goFunc is a C function pointer of the translated code as the Go function it is (cFuncPointer's inverse).
func goFunc[T any](pointer uintptr) T {
	return *(*T)(unsafe.Pointer(&struct{ uintptr }{pointer}))
}

var rankFunctionPointer = cFuncPointer(screenroomRank)

// sqliteFreePointer is sqlite3_free as a C function pointer: the destructor of the query's cached mean length
var sqliteFreePointer = cFuncPointer(sqlite3.Xsqlite3_free)

// cMemory is an address in C memory (libc's allocator, SQLite's own structs) as a pointer Go reads and writes
// through. The memory is not Go's: the garbage collector neither moves nor frees it, which is what vet's unsafeptr
// check guards against for Go memory.
func cMemory(address uintptr) unsafe.Pointer {
	return *(*unsafe.Pointer)(unsafe.Pointer(&address))
}

// registerRankFunction asks the connection for its fts5_api (`SELECT fts5(?1)` with a pointer bound, as the FTS5
// documentation says) and creates the function with it.
func registerRankFunction(tls *libc.TLS, db uintptr) error {
	query, err := libc.CString("SELECT fts5(?1)")
	if err != nil {
		return err
	}
	defer libc.Xfree(tls, query)
	pointerType, err := libc.CString("fts5_api_ptr")
	if err != nil {
		return err
	}
	defer libc.Xfree(tls, pointerType)
	name, err := libc.CString(rankFunctionName)
	if err != nil {
		return err
	}
	defer libc.Xfree(tls, name)
	notedName, err := libc.CString(rankNotedFunctionName)
	if err != nil {
		return err
	}
	defer libc.Xfree(tls, notedName)

	// two words of C memory: the statement handle, then the fts5_api pointer FTS5 writes
	cells := libc.Xcalloc(tls, 2, 8)
	if cells == 0 {
		return fmt.Errorf("%s: out of memory", rankFunctionName)
	}
	defer libc.Xfree(tls, cells)
	stmtCell, apiCell := cells, cells+8

	if rc := sqlite3.Xsqlite3_prepare_v2(tls, db, query, -1, stmtCell, 0); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("%s: SELECT fts5(?1): SQLite error %d", rankFunctionName, rc)
	}
	stmt := *(*uintptr)(cMemory(stmtCell))
	sqlite3.Xsqlite3_bind_pointer(tls, stmt, 1, apiCell, pointerType, 0)
	sqlite3.Xsqlite3_step(tls, stmt)
	if rc := sqlite3.Xsqlite3_finalize(tls, stmt); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("%s: SELECT fts5(?1): SQLite error %d", rankFunctionName, rc)
	}
	api := *(*uintptr)(cMemory(apiCell))
	if api == 0 {
		return fmt.Errorf("%s: this SQLite has no FTS5", rankFunctionName)
	}
	createFunction := (*sqlite3.Tfts5_api)(cMemory(api)).FxCreateFunction
	create := goFunc[func(*libc.TLS, uintptr, uintptr, uintptr, uintptr, uintptr) int32](createFunction)
	if rc := create(tls, api, name, 0, rankFunctionPointer, 0); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("%s: xCreateFunction: SQLite error %d", rankFunctionName, rc)
	}
	if rc := create(tls, api, notedName, rankNotedUserData, rankFunctionPointer, 0); rc != sqlite3.SQLITE_OK {
		return fmt.Errorf("%s: xCreateFunction: SQLite error %d", rankNotedFunctionName, rc)
	}
	return nil
}

// The most phrases a query weighs (search.go sends at most 12 terms); phrases after these weigh 1.
const rankMaxPhrases = 32

// screenroomRank is the auxiliary function: for the current row, -Σ w(i) · f(i)·(k1+1) / (f(i) + k1·(1 − b + b·D/avgdl)),
// f(i) the instances of phrase i in the row, D the row's tokens, avgdl the index's mean; w(i) the i-th argument
// after the table (1 when not given). bm25's formula and constants, bm25's sign (lower is better). As
// screenroom_rank_noted, the first argument after the table is a ticket, the weights follow, and the row's matches
// are noted under the ticket (rankNotes) when its book is open.
func screenroomRank(tls *libc.TLS, pAPI, pFts, pCtx uintptr, nVal int32, apVal uintptr) {
	const k1, b = 1.2, 0.75
	api := (*sqlite3.TFts5ExtensionApi)(cMemory(pAPI))
	fail := func(rc int32) { sqlite3.Xsqlite3_result_error_code(tls, pCtx, rc) }

	// out-parameters in C memory: nInst, then iPhrase, iCol, iOff, then nTok, then nRow and nTotal (64-bit)
	cells := tls.Alloc(40)
	defer tls.Free(40)
	nInst, iPhrase, iCol, iOff, nTok := cells, cells+4, cells+8, cells+12, cells+16
	nRow, nTotal := cells+24, cells+32

	callInt := func(fn uintptr, out uintptr) int32 {
		return goFunc[func(*libc.TLS, uintptr, uintptr) int32](fn)(tls, pFts, out)
	}
	// screenroom_rank_noted: the first argument after the table is the ticket of the notes, the weights follow
	arg := func(i int32) uintptr { return *(*uintptr)(cMemory(apVal + uintptr(i)*8)) }
	var notes *rankNotes
	firstWeight := int32(0)
	if goFunc[func(*libc.TLS, uintptr) uintptr](api.FxUserData)(tls, pFts) == rankNotedUserData {
		if nVal < 1 {
			fail(sqlite3.SQLITE_MISUSE)
			return
		}
		if book, ok := rankNoteBook.Load(sqlite3.Xsqlite3_value_int64(tls, arg(0))); ok {
			notes = book.(*rankNotes)
		}
		firstWeight = 1
	}
	// the index's mean length, worked out on the query's first row and kept with the query (FTS5's auxiliary data,
	// as bm25 keeps it): xRowCount and xColumnTotalSize read the index's totals again on every call
	getAuxdata := goFunc[func(*libc.TLS, uintptr, int32) uintptr](api.FxGetAuxdata)
	var avgdl float64
	if kept := getAuxdata(tls, pFts, 0); kept != 0 {
		avgdl = *(*float64)(cMemory(kept))
	} else {
		if rc := callInt(api.FxRowCount, nRow); rc != sqlite3.SQLITE_OK {
			fail(rc)
			return
		}
		if rc := goFunc[func(*libc.TLS, uintptr, int32, uintptr) int32](api.FxColumnTotalSize)(tls, pFts, -1, nTotal); rc != sqlite3.SQLITE_OK {
			fail(rc)
			return
		}
		rows, total := *(*int64)(cMemory(nRow)), *(*int64)(cMemory(nTotal))
		avgdl = 1.0
		if rows > 0 && total > 0 {
			avgdl = float64(total) / float64(rows)
		}
		// kept when there is memory for it (SQLite frees it with the query, or at once if it can't keep it)
		if cell := sqlite3.Xsqlite3_malloc(tls, 8); cell != 0 {
			*(*float64)(cMemory(cell)) = avgdl
			setAuxdata := goFunc[func(*libc.TLS, uintptr, uintptr, uintptr) int32](api.FxSetAuxdata)
			setAuxdata(tls, pFts, cell, sqliteFreePointer)
		}
	}

	var freq [rankMaxPhrases]float64
	if rc := callInt(api.FxInstCount, nInst); rc != sqlite3.SQLITE_OK {
		fail(rc)
		return
	}
	inst := *(*int32)(cMemory(nInst))
	noted := 0 // where this row's matches start in the notes
	if notes != nil {
		noted = len(notes.instances)
	}
	xInst := goFunc[func(*libc.TLS, uintptr, int32, uintptr, uintptr, uintptr) int32](api.FxInst)
	for i := int32(0); i < inst; i++ {
		if rc := xInst(tls, pFts, i, iPhrase, iCol, iOff); rc != sqlite3.SQLITE_OK {
			fail(rc)
			return
		}
		phrase := *(*int32)(cMemory(iPhrase))
		if phrase >= 0 && phrase < rankMaxPhrases {
			freq[phrase]++
		}
		if notes != nil && *(*int32)(cMemory(iCol)) == 0 {
			notes.instances = append(notes.instances, rankInstance{phrase, *(*int32)(cMemory(iOff))})
		}
	}
	if rc := goFunc[func(*libc.TLS, uintptr, int32, uintptr) int32](api.FxColumnSize)(tls, pFts, -1, nTok); rc != sqlite3.SQLITE_OK {
		fail(rc)
		return
	}
	length := float64(*(*int32)(cMemory(nTok)))

	phrases := goFunc[func(*libc.TLS, uintptr) int32](api.FxPhraseCount)(tls, pFts)
	if notes != nil {
		// the row's matches and its first column's tokens (the row's, in a table of one column such as
		// answer_search), and once a query each phrase's tokens
		if goFunc[func(*libc.TLS, uintptr) int32](api.FxColumnCount)(tls, pFts) != 1 {
			if rc := goFunc[func(*libc.TLS, uintptr, int32, uintptr) int32](api.FxColumnSize)(tls, pFts, 0, nTok); rc != sqlite3.SQLITE_OK {
				fail(rc)
				return
			}
		}
		if notes.phraseSizes == nil {
			notes.phraseSizes = make([]int32, phrases)
			for i := range notes.phraseSizes {
				notes.phraseSizes[i] = goFunc[func(*libc.TLS, uintptr, int32) int32](api.FxPhraseSize)(tls, pFts, int32(i))
			}
		}
		rowid := goFunc[func(*libc.TLS, uintptr) int64](api.FxRowid)(tls, pFts)
		notes.rows = append(notes.rows, notedRow{rowid: rowid, size: *(*int32)(cMemory(nTok)), from: noted, to: len(notes.instances)})
	}
	score := 0.0
	for i := int32(0); i < phrases && i < rankMaxPhrases; i++ {
		weight := 1.0
		if i+firstWeight < nVal {
			weight = sqlite3.Xsqlite3_value_double(tls, arg(i+firstWeight))
		}
		f := freq[i]
		score += weight * (f * (k1 + 1)) / (f + k1*(1-b+b*length/avgdl))
	}
	sqlite3.Xsqlite3_result_double(tls, pCtx, -score)
}
