import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { csvBlobText } from '@/testing/blob';
import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const base = { collectionId: 'x', created: '2024-03-01 10:00:00.000Z', updated: '2024-03-01 10:00:00.000Z' };
const job = {
  ...base,
  id: 'j1',
  collectionName: 'jobs',
  company: 'c1',
  title: 'Senior Engineer',
  description: 'Build the product.',
  location: 'Remote',
  questions: [],
  expand: { questions: [] },
};
const list = <T,>(items: T[]) => ({ page: 1, perPage: 1000, totalItems: items.length, totalPages: items.length ? 1 : 0, items });
const noCounts = { total: 0, invited: 0, started: 0, completed: 0, decisions: { advance: 0, hold: 0, reject: 0, none: 0 } };

type SentBody = { importId: string; rows: { email: string; firstName: string; lastName: string; deadline: string }[] };

/** The job detail's API; `invited`: the addresses the job already has (the preview's "already invited"). */
function jobApi(invited: string[] = []) {
  server.use(
    http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job)),
    // the dialog's check of who is already invited asks for the e-mails only
    http.get('*/api/collections/candidates/records', () => HttpResponse.json(list(invited.map((email) => ({ email }))))),
    // the pipeline's page (server/internal/pipeline/pipeline_page.go)
    http.get('*/api/screenroom/jobs/j1/candidates', () => HttpResponse.json(list([]))),
    http.get('*/api/screenroom/jobs/j1/pipeline', () => HttpResponse.json(noCounts)),
    // the company's question bank, which the job page reads for how each question is answered (none here)
    http.get('*/api/collections/questions/records', () => HttpResponse.json(list([]))),
  );
}

const csvFile = (text: string, name = 'candidates.csv') => new File([text], name, { type: 'text/csv' });

async function openDialogWith(file: File) {
  const user = userEvent.setup();
  renderRoute('/companies/c1/jobs/j1');
  await user.click(await screen.findByRole('button', { name: 'Invite from CSV' }));
  const dialog = await screen.findByRole('dialog', { name: 'Invite from CSV' });
  await user.upload(within(dialog).getByLabelText('Choose a CSV file'), file);
  return { user, dialog };
}

/**
 * The text of the Problem cell of the preview row for file line `line` (by the row's data-line: role queries over a
 * 1,000-row table take minutes in jsdom).
 */
function problemOf(dialog: HTMLElement, line: number): string {
  const row = dialog.querySelector(`tr[data-line="${line}"]`);
  if (!row) throw new Error(`no preview row for line ${line}`);
  return row.querySelector('td:last-child')?.textContent ?? '';
}

describe('invite from CSV', () => {
  beforeEach(() => {
    managerShellApi();
    signInAs({ primaryCompany: 'c1' });
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows each row with its problem before anything is sent, from tolerant header names', async () => {
    jobApi(['old@example.com']);
    let sent = 0;
    server.use(
      http.post('*/api/screenroom/jobs/j1/invites/bulk', () => {
        sent += 1;
        return HttpResponse.json({ results: [], created: 0, skipped: 0, failed: 0 });
      }),
    );
    const { dialog } = await openDialogWith(
      csvFile(
        [
          'E-mail,First Name,last_name,Deadline',
          'ada@example.com,Ada,Lovelace,2099-01-31',
          'not-an-email,Bad,Row,',
          'ADA@example.com ,Ada,Again,',
          'old@example.com,Old,Timer,',
          'late@example.com,Late,Comer,2001-01-01',
          'odd@example.com,Odd,Date,someday',
          'grace@example.com,Grace,Hopper,',
        ].join('\n'),
      ),
    );

    expect(await within(dialog).findByText(/2 rows ready to invite, 5 with problems/)).toBeInTheDocument();
    expect(within(dialog).getByRole('table', { name: 'Rows of the file' })).toBeInTheDocument();
    expect(problemOf(dialog, 2)).toBe('OK');
    expect(problemOf(dialog, 3)).toBe('Not a valid e-mail address');
    expect(problemOf(dialog, 4)).toBe('Duplicate of row 2');
    expect(problemOf(dialog, 5)).toBe('Already invited to this job');
    expect(problemOf(dialog, 6)).toBe('The deadline must be in the future');
    expect(problemOf(dialog, 7)).toBe('The deadline is not a date');
    expect(problemOf(dialog, 8)).toBe('OK');
    expect(within(dialog).getByRole('button', { name: 'Send 2 invites' })).toBeEnabled();
    expect(sent).toBe(0);
  });

  it('marks the rows over 1,000 and offers to send the first 1,000 only', async () => {
    jobApi();
    const rows = Array.from({ length: 1002 }, (_, i) => `person${i}@example.com`);
    const { dialog } = await openDialogWith(csvFile(['email', ...rows].join('\n')));
    expect(await within(dialog).findByText('Send 1000 invites', {}, { timeout: 60_000 })).toBeInTheDocument();
    expect(problemOf(dialog, 1001)).toBe('OK');
    expect(problemOf(dialog, 1002)).toBe('Over the limit of 1,000 rows');
    expect(problemOf(dialog, 1003)).toBe('Over the limit of 1,000 rows');
  });

  it('refuses a file without an e-mail column, on the file field', async () => {
    jobApi();
    const { dialog } = await openDialogWith(csvFile('name,phone\nAda,123\n'));
    expect(await within(dialog).findByText('The file has no e-mail column. Name its column "email".')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Choose a CSV file')).toHaveAttribute('aria-invalid', 'true');
  });

  it('sends in chunks with a progress bar, then a summary with reasons, downloadable as CSV', async () => {
    jobApi();
    const bodies: SentBody[] = [];
    let releaseSecond: () => void = () => {};
    const second = new Promise<void>((resolve) => (releaseSecond = resolve));
    server.use(
      http.post('*/api/screenroom/jobs/j1/invites/bulk', async ({ request }) => {
        const body = (await request.json()) as SentBody;
        bodies.push(body);
        if (bodies.length === 2) await second;
        return HttpResponse.json({
          results: body.rows.map((row) =>
            row.email === 'p120@example.com'
              ? { status: 'failed', reason: 'too_many_mails', message: 'raw server words' }
              : { status: 'created', candidate: `k-${row.email}` },
          ),
        });
      }),
    );
    const good = Array.from({ length: 150 }, (_, i) => `p${i}@example.com,P${i},Person`);
    const { user, dialog } = await openDialogWith(csvFile(['email,first name,last name', ...good, 'broken,,', 'p1@example.com,Dup,Licate'].join('\n')));
    await user.click(await within(dialog).findByRole('button', { name: 'Send 150 invites' }));

    expect(await within(dialog).findByText('Sending invites: 100 of 150')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '67');
    releaseSecond();

    const summary = await within(dialog).findByRole('group', { name: 'Summary' });
    expect(summary).toHaveTextContent('Sent: 149');
    expect(summary).toHaveTextContent('Skipped: 2');
    expect(summary).toHaveTextContent('Failed: 1');
    // two requests of one import, bad rows never sent
    expect(bodies.map((b) => b.rows.length)).toEqual([100, 50]);
    expect(new Set(bodies.map((b) => b.importId)).size).toBe(1);
    expect(bodies.flatMap((b) => b.rows.map((r) => r.email))).not.toContain('broken');
    expect(bodies[0]!.rows[3]).toEqual({ email: 'p3@example.com', firstName: 'P3', lastName: 'Person', deadline: '' });
    const notSent = within(dialog).getByRole('table', { name: 'Rows not sent' });
    expect(within(notSent).getByText('Too many e-mails were sent to this address. Please try again later.')).toBeInTheDocument();
    expect(within(notSent).queryByText('raw server words')).not.toBeInTheDocument();
    expect(within(notSent).getByText('Duplicate of row 3')).toBeInTheDocument();

    let blob: Blob | undefined;
    URL.createObjectURL = vi.fn((b: Blob) => {
      blob = b;
      return 'blob:summary';
    });
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(within(dialog).getByRole('button', { name: 'Download summary (CSV)' }));
    expect(click).toHaveBeenCalledTimes(1);
    // UTF-8 with a byte-order mark, so Excel on Windows reads the names right
    const text = await csvBlobText(blob!);
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('Row,Email,First name,Last name,Result,Reason');
    expect(lines).toHaveLength(153);
    expect(lines[1]).toBe('2,p0@example.com,P0,Person,Sent,');
    expect(lines[121]).toBe('122,p120@example.com,P120,Person,Failed,Too many e-mails were sent to this address. Please try again later.');
    expect(lines[151]).toBe('152,broken,,,Skipped,Not a valid e-mail address');
    expect(lines[152]).toBe('153,p1@example.com,Dup,Licate,Skipped,Duplicate of row 3');
  });

  it('keeps what was sent when a request fails midway, and retries the rest under the same import', async () => {
    jobApi();
    const bodies: SentBody[] = [];
    let failing = true;
    server.use(
      http.post('*/api/screenroom/jobs/j1/invites/bulk', async ({ request }) => {
        const body = (await request.json()) as SentBody;
        bodies.push(body);
        if (bodies.length === 2 && failing) {
          failing = false;
          return HttpResponse.json({ status: 500, message: 'database is locked', data: {} }, { status: 500 });
        }
        return HttpResponse.json({ results: body.rows.map((row) => ({ status: 'created', candidate: `k-${row.email}` })) });
      }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const good = Array.from({ length: 250 }, (_, i) => `q${i}@example.com`);
    const { user, dialog } = await openDialogWith(csvFile(['Email', ...good].join('\n')));
    await user.click(await within(dialog).findByRole('button', { name: 'Send 250 invites' }));

    const summary = await within(dialog).findByRole('group', { name: 'Summary' });
    expect(summary).toHaveTextContent('Sent: 100');
    expect(summary).toHaveTextContent('Not sent: 150');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Something went wrong while processing your request.');
    expect(within(dialog).queryByText(/database is locked/)).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Retry the rest' }));
    expect(await within(dialog).findByRole('group', { name: 'Summary' })).toHaveTextContent('Sent: 250');
    expect(within(dialog).queryByRole('button', { name: 'Retry the rest' })).not.toBeInTheDocument();
    // the retry sends rows 101-250 only, in the same import
    expect(bodies.map((b) => [b.rows.length, b.rows[0]!.email])).toEqual([
      [100, 'q0@example.com'],
      [100, 'q100@example.com'],
      [100, 'q100@example.com'],
      [50, 'q200@example.com'],
    ]);
    expect(new Set(bodies.map((b) => b.importId)).size).toBe(1);
  });

  it("stops at the manager's hourly cap and says how many can still be invited and when", async () => {
    jobApi();
    const bodies: SentBody[] = [];
    const availableAt = '2024-03-01T11:01:00.000Z';
    const cap = { limit: 150, remaining: 0, availableAt };
    server.use(
      http.post('*/api/screenroom/jobs/j1/invites/bulk', async ({ request }) => {
        const body = (await request.json()) as SentBody;
        bodies.push(body);
        if (bodies.length === 3) {
          const message = 'You can invite 0 more candidates now: at most 150 an hour. More can be invited from 11:01 UTC.';
          return HttpResponse.json({ status: 429, message, data: { rows: { code: 'bulk_hourly_cap', message, params: cap } } }, { status: 429 });
        }
        // the second request reaches the cap halfway: its last 50 rows are not created
        const results = body.rows.map((row, index) =>
          bodies.length === 2 && index >= 50
            ? { status: 'failed', reason: 'hourly_cap', message: 'Over the limit of candidates you can invite in an hour. Send it again later.' }
            : { status: 'created', candidate: `k-${row.email}` },
        );
        return HttpResponse.json({ results, hourlyCap: bodies.length === 2 ? cap : { ...cap, remaining: 100 } });
      }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const good = Array.from({ length: 250 }, (_, i) => `h${i}@example.com`);
    const { user, dialog } = await openDialogWith(csvFile(['Email', ...good].join('\n')));
    await user.click(await within(dialog).findByRole('button', { name: 'Send 250 invites' }));

    const summary = await within(dialog).findByRole('group', { name: 'Summary' });
    expect(summary).toHaveTextContent('Sent: 150');
    expect(summary).toHaveTextContent('Failed: 50');
    expect(summary).toHaveTextContent('Not sent: 50');
    const later = new Intl.DateTimeFormat('en-US', { timeStyle: 'short' }).format(new Date(availableAt));
    const words = `You can invite no more candidates now: at most 150 an hour. More from ${later}: then use 'Retry the rest'.`;
    expect(within(dialog).getByRole('alert')).toHaveTextContent(words);
    expect(within(dialog).getAllByText('Over your limit of invitations an hour. Send it again later.')).toHaveLength(50);
    // nothing more was sent once the cap was reached
    expect(bodies).toHaveLength(2);

    // a retry the server refuses whole (nothing left): the same words, never the server's
    await user.click(within(dialog).getByRole('button', { name: 'Retry the rest' }));
    await vi.waitFor(() => expect(bodies).toHaveLength(3));
    expect(bodies[2]!.rows).toHaveLength(100);
    await within(dialog).findByRole('group', { name: 'Summary' });
    expect(within(dialog).getByRole('alert')).toHaveTextContent(words);
    expect(within(dialog).queryByText(/UTC/)).not.toBeInTheDocument();
  });
});
