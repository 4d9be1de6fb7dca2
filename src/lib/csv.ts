// Every CSV file the app gives a manager goes through here, so each one opens the same way everywhere: UTF-8 with a
// byte-order mark (Excel on Windows reads a file without one in the system's code page: "Zoë" becomes "ZoÃ«"), CRLF
// line ends (RFC 4180), and no cell a spreadsheet would run as a formula. The server's CSVs follow the same rules
// (server/internal/platform/csv.go).

/** U+FEFF, written first: the bytes EF BB BF that tell a spreadsheet the file is UTF-8. */
export const BYTE_ORDER_MARK = '\uFEFF';

export const CSV_MIME_TYPE = 'text/csv;charset=utf-8';

export type CsvValue = string | number | boolean | null | undefined;

/**
 * One cell: quoted when it holds a comma, a quote or a line break; text a spreadsheet would run as a formula (it
 * starts with =, +, -, @, a tab or a carriage return: OWASP "CSV injection") gets a leading apostrophe. Numbers are
 * written as numbers, a negative one included; null and undefined are empty.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows (the header first) as a CSV file's text, each line ended by CRLF; without the byte-order mark. */
export function csvText(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((row) => `${row.map(csvCell).join(',')}\r\n`).join('');
}

/** The file to save: the byte-order mark (once, whatever the text starts with) and the text, as UTF-8. */
export function csvBlob(text: string): Blob {
  return new Blob([text.startsWith(BYTE_ORDER_MARK) ? text : BYTE_ORDER_MARK + text], { type: CSV_MIME_TYPE });
}

/** Saves a file the browser already holds under filename (a link clicked for the user). */
export function saveFile(filename: string, file: Blob): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // revoked once the browser has surely read it: some start reading the URL only after the click returns
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Downloads a CSV file: rows (the header first) or a CSV text already made, with the byte-order mark. */
export function downloadCsv(filename: string, content: string | readonly (readonly CsvValue[])[]): void {
  saveFile(filename, csvBlob(typeof content === 'string' ? content : csvText(content)));
}
