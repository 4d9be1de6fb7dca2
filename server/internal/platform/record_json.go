package platform

import (
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/pocketbase/pocketbase/core"
)

// RecordJSONSQL is an SQL expression that SQLite turns into a row's JSON in the shape the records API gives the record
// (issue 20 point 3: a list read as records spends more time making each record's JSON, field by field, than reading
// it): collectionId and collectionName, then every field of the collection that is not hidden and not in omit, by its
// type: a bool as true/false, a number as a number, a multiple relation, select or file as an array, a json or
// geoPoint field as its JSON, everything else as its stored text. alias is the table's alias in the statement.
// Hidden fields are never written, whatever omit says, as the records API hides them from everyone but superusers.
func RecordJSONSQL(collection *core.Collection, alias string, omit ...string) string {
	return "json_object(" + RecordJSONArgsSQL(collection, alias, omit...) + ")"
}

// RecordJSONArgsSQL is the argument list of RecordJSONSQL's json_object (its keys and values, comma separated), for a
// caller that adds keys of its own after them (the questions list's expand) without SQLite parsing the JSON again.
func RecordJSONArgsSQL(collection *core.Collection, alias string, omit ...string) string {
	args := []string{
		"'collectionId', " + quoteSQLString(collection.Id),
		"'collectionName', " + quoteSQLString(collection.Name),
	}
	for _, field := range collection.Fields {
		name := field.GetName()
		if field.GetHidden() || slices.Contains(omit, name) {
			continue
		}
		column := alias + `."` + name + `"` // field names are identifiers (PocketBase validates them)
		args = append(args, quoteSQLString(name)+", "+fieldJSONSQL(field, column))
	}
	return strings.Join(args, ", ")
}

func fieldJSONSQL(field core.Field, column string) string {
	if multi, ok := field.(core.MultiValuer); ok && multi.IsMultiple() {
		return fmt.Sprintf("json(CASE WHEN json_valid(%[1]s) AND json_type(%[1]s) = 'array' THEN %[1]s ELSE '[]' END)", column)
	}
	switch field.Type() {
	case core.FieldTypeBool:
		return fmt.Sprintf("json(CASE WHEN %s THEN 'true' ELSE 'false' END)", column)
	case core.FieldTypeNumber:
		return fmt.Sprintf("coalesce(%s, 0)", column)
	case core.FieldTypeJSON, core.FieldTypeGeoPoint:
		return fmt.Sprintf("json(CASE WHEN json_valid(%[1]s) THEN %[1]s ELSE 'null' END)", column)
	default:
		return fmt.Sprintf("coalesce(%s, '')", column)
	}
}

func quoteSQLString(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// listBodies keeps the byte buffers the list routes (jobs_list.go, questions_list.go) join their rows' JSON into:
// a company's 301 jobs are 104 KB, and growing a new buffer to that size on every read was a tenth of the read.
var listBodies = sync.Pool{New: func() any { buffer := make([]byte, 0, 64<<10); return &buffer }}

// ListBody is an empty buffer from listBodies; give it back with ReleaseListBody once the response is written.
func ListBody() *[]byte {
	buffer := listBodies.Get().(*[]byte)
	*buffer = (*buffer)[:0]
	return buffer
}

// ReleaseListBody returns a buffer to listBodies, unless one very large list left it too big to keep.
func ReleaseListBody(buffer *[]byte) {
	if cap(*buffer) <= 4<<20 {
		listBodies.Put(buffer)
	}
}

// AppendRowsJSON appends each row's one column (a JSON text) to body, comma separated, and counts them: the list
// routes' items, in the order the statement reads them.
func AppendRowsJSON(body []byte, rows *sql.Rows) ([]byte, int, error) {
	count := 0
	var item sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&item); err != nil {
			return body, count, err
		}
		if count > 0 {
			body = append(body, ',')
		}
		body = append(body, item...)
		count++
	}
	return body, count, rows.Err()
}
