// Invites from a CSV file (issue 18): reading the manager's file, the preview's per-row problems, and the summary
// they can download. papaparse is loaded on demand (only when a file is chosen), so the job detail does not carry it.

import { csvText } from '@/lib/csv';

/** At most this many rows an import (decisions.md); the server refuses more. */
export const MAX_IMPORT_ROWS = 1000;
/** Rows per request: small enough for a progress bar that moves, large enough to be quick. */
export const CHUNK_SIZE = 100;

// The server checks the same pattern (server/internal/candidates/bulk_invites.go).
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export type ProblemCode = 'invalid_email' | 'duplicate_in_file' | 'already_invited' | 'over_limit' | 'invalid_deadline' | 'past_deadline';

export type CsvRow = {
  /** the row's line in the file (the header is line 1) */
  line: number;
  email: string;
  firstName: string;
  lastName: string;
  deadline: string;
};

export type PreviewRow = CsvRow & { problem?: { code: ProblemCode; message: string } };

/** Thrown for a file that cannot be an invite list; its message is for the manager. */
export class CsvFileError extends Error {}

const HEADER_NAMES: Record<keyof Omit<CsvRow, 'line'>, string[]> = {
  email: ['email', 'e-mail', 'emailaddress', 'e-mailaddress', 'mail'],
  firstName: ['firstname', 'first', 'givenname', 'forename'],
  lastName: ['lastname', 'last', 'surname', 'familyname'],
  deadline: ['deadline', 'due', 'duedate', 'respondby'],
};

/** "First name", "first_name", "FirstName" -> "firstname"; "E-mail" -> "e-mail". */
const headerKey = (name: string) => name.trim().toLowerCase().replace(/[\s_]+/g, '');

/** Which column holds each field (by the header's name, tolerant of case, spaces and underscores). */
export function mapHeaders(headers: string[]): Partial<Record<keyof Omit<CsvRow, 'line'>, string>> {
  const found: Partial<Record<keyof Omit<CsvRow, 'line'>, string>> = {};
  for (const header of headers) {
    const key = headerKey(header);
    for (const [field, names] of Object.entries(HEADER_NAMES) as [keyof Omit<CsvRow, 'line'>, string[]][]) {
      if (!found[field] && names.includes(key)) found[field] = header;
    }
  }
  return found;
}

/** A file's text (through FileReader: Blob.text is missing from older browsers and from jsdom). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'));
    reader.readAsText(file);
  });
}

/** The file's rows, read by papaparse (loaded now). Empty lines are left out. */
export async function parseCsv(file: File | string): Promise<CsvRow[]> {
  const { default: Papa } = await import('papaparse');
  const text = typeof file === 'string' ? file : await readText(file);
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), { header: true, skipEmptyLines: 'greedy' });
  const headers = parsed.meta.fields ?? [];
  const columns = mapHeaders(headers);
  if (!columns.email) throw new CsvFileError('The file has no e-mail column. Name its column "email".');
  const cell = (record: Record<string, string>, column: string | undefined) => (column ? String(record[column] ?? '').trim() : '');
  return parsed.data.map((record, index) => ({
    line: index + 2,
    email: cell(record, columns.email),
    firstName: cell(record, columns.firstName),
    lastName: cell(record, columns.lastName),
    deadline: cell(record, columns.deadline),
  }));
}

/** A deadline cell as a time (a bare date is the end of that day, UTC); '' when empty; null when not a date. */
export function deadlineTime(value: string): number | '' | null {
  const text = value.trim();
  if (!text) return '';
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T23:59:59.000Z` : text);
  return Number.isFinite(ms) ? ms : null;
}

export const PROBLEM_MESSAGES: Record<ProblemCode, string> = {
  invalid_email: 'Not a valid e-mail address',
  duplicate_in_file: 'Duplicate of an earlier row',
  already_invited: 'Already invited to this job',
  over_limit: `Over the limit of ${MAX_IMPORT_ROWS.toLocaleString('en')} rows`,
  invalid_deadline: 'The deadline is not a date',
  past_deadline: 'The deadline must be in the future',
};

/** Each row with its problem, if any (the first that applies): what the preview shows and what is not sent. */
export function previewRows(rows: CsvRow[], invited: ReadonlySet<string>, now = Date.now()): PreviewRow[] {
  const firstLine = new Map<string, number>();
  return rows.map((row, index) => {
    const problem = (code: ProblemCode, message = PROBLEM_MESSAGES[code]) => ({ ...row, problem: { code, message } });
    if (index >= MAX_IMPORT_ROWS) return problem('over_limit');
    const email = row.email.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) return problem('invalid_email');
    const earlier = firstLine.get(email);
    if (earlier !== undefined) return problem('duplicate_in_file', `Duplicate of row ${earlier}`);
    firstLine.set(email, row.line);
    if (invited.has(email)) return problem('already_invited');
    const deadline = deadlineTime(row.deadline);
    if (deadline === null) return problem('invalid_deadline');
    if (deadline !== '' && deadline <= now) return problem('past_deadline');
    return { ...row };
  });
}

export type RowOutcome = { status: 'sent' | 'skipped' | 'failed' | 'not_sent'; reason: string };

const OUTCOME_WORDS: Record<RowOutcome['status'], string> = { sent: 'Sent', skipped: 'Skipped', failed: 'Failed', not_sent: 'Not sent' };

/** The summary as a CSV file's text: each row of the file with what happened to it. */
export function summaryCsv(rows: PreviewRow[], outcomes: ReadonlyMap<number, RowOutcome>): string {
  return csvText([
    ['Row', 'Email', 'First name', 'Last name', 'Result', 'Reason'],
    ...rows.map((row) => {
      const outcome = outcomes.get(row.line) ?? { status: 'not_sent', reason: '' };
      return [row.line, row.email, row.firstName, row.lastName, OUTCOME_WORDS[outcome.status], outcome.reason];
    }),
  ]);
}

/** A random id naming one import (its requests count as one invite action on the server). */
export function newImportId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
