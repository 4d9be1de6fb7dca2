import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import type { PipelineCandidate, PipelineCounts } from '../api/job-queries';

const base = { collectionId: 'x', created: '2024-03-01 10:00:00.000Z', updated: '2024-03-01 10:00:00.000Z' };
const job = {
  ...base,
  id: 'j1',
  collectionName: 'jobs',
  company: 'c1',
  title: 'Senior Engineer',
  description: 'Build the product.',
  location: 'Remote',
  questions: ['q1'],
  expand: { questions: [] },
};

function row(id: string, email: string): PipelineCandidate {
  return {
    id,
    email,
    created: '2024-03-01 10:00:00.000Z',
    status: 'invited',
    answeredCount: 0,
    completedAt: '',
    averageRating: 0,
    ratingsCount: 0,
    decision: undefined as unknown as PipelineCandidate['decision'],
    decisionAt: '',
    deadline: '',
    withdrawn: false,
  };
}

const counts: PipelineCounts = { total: 47, invited: 47, started: 0, completed: 0, decisions: { advance: 0, hold: 0, reject: 0, none: 47 } };
const page = Array.from({ length: 30 }, (_, i) => row(`k${i}`, `c${i}@example.com`));

/** The job's page with 47 candidates (30 shown), and a bulk route answering `bulk` (its body given). */
function api(bulk: (action: string, body: Record<string, unknown>) => Response) {
  const bodies: { action: string; body: Record<string, unknown> }[] = [];
  server.use(
    http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job)),
    http.get('*/api/collections/questions/records', () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 0, totalPages: 0, items: [] })),
    http.get('*/api/screenroom/jobs/j1/pipeline', () => HttpResponse.json(counts)),
    http.get('*/api/screenroom/jobs/j1/candidates', ({ request }) => {
      const params = new URL(request.url).searchParams;
      const items = params.get('q') ? [row('k1', 'c1@example.com')] : page;
      const totalItems = params.get('q') ? 1 : 47;
      return HttpResponse.json({ page: 1, perPage: 30, totalItems, totalPages: Math.ceil(totalItems / 30), items });
    }),
    http.post('*/api/screenroom/jobs/j1/bulk/:action', async ({ request, params }) => {
      const body = (await request.json()) as Record<string, unknown>;
      bodies.push({ action: String(params.action), body });
      return bulk(String(params.action), body);
    }),
  );
  return bodies;
}

/** A streamed answer: the lines as the server writes them. */
function lines(rows: { id: string; email: string; status: string; code?: string }[]) {
  const counted = (status: string) => rows.filter((r) => r.status === status).length;
  const text = [
    { type: 'start', total: rows.length },
    ...rows.map((r) => ({ type: 'row', ...r })),
    { type: 'end', done: counted('done'), skipped: counted('skipped'), failed: counted('failed'), hourlyCap: { limit: 2000, remaining: 1953, availableAt: '2024-03-01T11:01:00.000Z' } },
  ]
    .map((line) => JSON.stringify(line))
    .join('\n');
  return new HttpResponse(`${text}\n`, { headers: { 'Content-Type': 'application/x-ndjson' } });
}

function start() {
  signInAs({ primaryCompany: 'c1' });
  return renderRoute('/companies/c1/jobs/j1');
}

const table = () => screen.findByRole('table', { name: 'Candidates' });
const bar = () => screen.findByRole('region', { name: 'Selected candidates' });

describe('bulk actions in the pipeline', () => {
  beforeEach(() => managerShellApi());

  it('offers Compare for two to four picked rows, linking to the compare screen in the order picked', async () => {
    api(() => HttpResponse.json({}));
    const user = userEvent.setup();
    start();
    await table();
    expect(screen.queryByRole('region', { name: 'Selected candidates' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select c3@example.com' }));
    expect(within(await bar()).getByRole('status')).toHaveTextContent('1 selected');
    expect(within(await bar()).getByRole('button', { name: 'Compare' })).toBeDisabled();
    expect(within(await bar()).getByText('Compare takes 2 to 4 selected candidates.')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select c1@example.com' }));
    const compare = within(await bar()).getByRole('link', { name: 'Compare' });
    expect(compare).toHaveAttribute('href', '/companies/c1/jobs/j1/compare?candidates=k3,k1');

    for (const email of ['c5@example.com', 'c6@example.com', 'c7@example.com']) {
      await user.click(screen.getByRole('checkbox', { name: `Select ${email}` }));
    }
    expect(within(await bar()).getByRole('status')).toHaveTextContent('5 selected');
    expect(within(await bar()).getByRole('button', { name: 'Compare' })).toBeDisabled();

    await user.click(within(await bar()).getByRole('button', { name: 'Clear selection' }));
    expect(screen.getByRole('checkbox', { name: 'Select c3@example.com' })).not.toBeChecked();
    expect(screen.queryByRole('region', { name: 'Selected candidates' })).not.toBeInTheDocument();
  });

  it('decides all that match the filter in one request, showing the progress and a summary of who was left and why', async () => {
    const bodies = api(() =>
      lines([
        { id: 'k0', email: 'c0@example.com', status: 'done' },
        { id: 'k1', email: 'c1@example.com', status: 'skipped', code: 'unchanged' },
        { id: 'zz', email: '', status: 'skipped', code: 'not_found' },
        { id: 'k2', email: 'c2@example.com', status: 'done' },
      ]),
    );
    const user = userEvent.setup();
    start();
    await table();

    await user.click(screen.getByRole('checkbox', { name: 'Select every candidate on this page' }));
    expect(screen.getByRole('checkbox', { name: 'Select c29@example.com' })).toBeChecked();
    expect(within(await bar()).getByRole('status')).toHaveTextContent('30 selected');
    await user.click(screen.getByRole('button', { name: 'Select all 47 that match' }));
    expect(within(await bar()).getByRole('status')).toHaveTextContent('All 47 matching selected');

    await user.click(within(await bar()).getByRole('button', { name: 'Decide' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject all 47 candidates that match the filter?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));

    await within(dialog).findByText('Decided 2 candidates. 2 candidates were left as they were:');
    expect(bodies).toEqual([{ action: 'decide', body: { filter: { status: '', decision: '', q: '' }, decision: 'reject' } }]);
    const rows = within(dialog).getAllByRole('row').slice(1).map((r) => r.textContent);
    expect(rows).toEqual(['c1@example.comAlready had this decision.', 'Not in this jobNot in this job any more: erased, or not one of its candidates.']);
    expect(within(dialog).getByText(/^You can act on 1,953 more candidates this hour \(at most 2,000 an hour, CSV invites included\)\. More from/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    // done: the selection is cleared
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selected candidates' })).not.toBeInTheDocument());
  });

  it('erases the picked rows after a confirmation, and says plainly when the hourly allowance is spent', async () => {
    const bodies = api(() =>
      HttpResponse.json(
        {
          status: 429,
          message: 'You can act on 0 more candidates now: at most 2000 an hour by bulk actions.',
          data: { candidates: { code: 'bulk_hourly_cap', message: 'x', params: { limit: 2000, remaining: 0, availableAt: '2024-03-01T11:01:00.000Z' } } },
        },
        { status: 429 },
      ),
    );
    const user = userEvent.setup();
    start();
    await table();
    await user.click(screen.getByRole('checkbox', { name: 'Select c4@example.com' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select c8@example.com' }));
    await user.click(within(await bar()).getByRole('button', { name: 'Erase' }));
    const dialog = await screen.findByRole('dialog', { name: 'Erase 2 candidates?' });
    expect(dialog).toHaveTextContent('This removes everything and cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Erase 2 candidates' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(/^Your hourly allowance for bulk actions is spent\. You can act on 0 more candidates this hour/);
    expect(bodies).toEqual([{ action: 'erase', body: { candidates: ['k4', 'k8'] } }]);
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    // nothing was done: the selection stays for another try
    expect(within(await bar()).getByRole('status')).toHaveTextContent('2 selected');
  });

  it('drops the selection when the filter changes', async () => {
    api(() => HttpResponse.json({}));
    const user = userEvent.setup();
    start();
    await table();
    await user.click(screen.getByRole('checkbox', { name: 'Select c4@example.com' }));
    expect(within(await bar()).getByRole('status')).toHaveTextContent('1 selected');
    await user.selectOptions(screen.getByLabelText('Status'), 'Invited');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selected candidates' })).not.toBeInTheDocument());
    expect(screen.getByRole('checkbox', { name: 'Select c4@example.com' })).not.toBeChecked();
  });
});
