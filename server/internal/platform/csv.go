package platform

import (
	"encoding/csv"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/pocketbase/pocketbase/core"
)

// Every CSV file the server gives a manager is written here, by the same rules as the SPA's (src/lib/csv.ts): UTF-8
// with a byte-order mark first (Excel on Windows reads a file without one in the system's code page: "Zoë" becomes
// "ZoÃ«"), CRLF line ends (RFC 4180), and no cell a spreadsheet would run as a formula.

// ByteOrderMark is U+FEFF in UTF-8.
const ByteOrderMark = "\uFEFF"

// CSVCell disarms text a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage return:
// OWASP "CSV injection") with a leading apostrophe. Quoting is the writer's.
func CSVCell(text string) string {
	if text != "" && strings.ContainsRune("=+-@\t\r", rune(text[0])) {
		return "'" + text
	}
	return text
}

// CSVWriter writes one CSV file.
type CSVWriter struct {
	w *csv.Writer
}

// NewCSVWriter starts a CSV file on out: the byte-order mark, then rows written with WriteRow.
func NewCSVWriter(out io.Writer) (*CSVWriter, error) {
	if _, err := io.WriteString(out, ByteOrderMark); err != nil {
		return nil, err
	}
	w := csv.NewWriter(out)
	w.UseCRLF = true
	return &CSVWriter{w: w}, nil
}

// WriteRow writes one row, each cell through CSVCell.
func (c *CSVWriter) WriteRow(cells ...string) error {
	safe := make([]string, len(cells))
	for i, cell := range cells {
		safe[i] = CSVCell(cell)
	}
	return c.w.Write(safe)
}

// Flush sends what is buffered on, and reports the first error of any write.
func (c *CSVWriter) Flush() error {
	c.w.Flush()
	return c.w.Error()
}

// ServeCSV starts a CSV download as the response to e, saved as filename: status 200 and its headers sent, the
// byte-order mark written. Rows follow with WriteRow; Flush at the end.
func ServeCSV(e *core.RequestEvent, filename string) (*CSVWriter, error) {
	header := e.Response.Header()
	header.Set("Content-Type", "text/csv; charset=utf-8")
	header.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": filename}))
	header.Set("Cache-Control", "no-store")
	header.Set("X-Content-Type-Options", "nosniff")
	e.Response.WriteHeader(http.StatusOK)
	return NewCSVWriter(e.Response)
}
