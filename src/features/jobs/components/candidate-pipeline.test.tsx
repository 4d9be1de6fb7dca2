import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { formatDeadline } from '@/lib/deadline';
import { formatDate, formatDay } from '@/lib/format-date';
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
  questions: ['q1', 'q2', 'q3', 'q4', 'q5'],
  expand: { questions: [] },
};

function row(id: string, email: string, fields: Partial<PipelineCandidate> = {}): PipelineCandidate {
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
    ...fields,
  };
}

const counts: PipelineCounts = {
  total: 47,
  invited: 12,
  started: 4,
  completed: 31,
  decisions: { advance: 3, hold: 1, reject: 2, none: 41 },
};

type Answer = { items: PipelineCandidate[]; totalItems?: number; totalPages?: number } | { status: number };

/**
 * The job, the counts route and the candidates list as PocketBase answers them. `list` answers each list request
 * (its search params) and every request's params are kept, in order, in the returned array.
 */
function pipelineApi({ list, countsAnswer = () => counts }: { list: (params: URLSearchParams) => Answer; countsAnswer?: () => PipelineCounts | { status: number } }) {
  const requests: URLSearchParams[] = [];
  const countRequests: string[] = [];
  server.use(
    http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job)),
    // the company's question bank (how the job's questions are answered): none here
    http.get('*/api/collections/questions/records', () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 0, totalPages: 0, items: [] })),
    http.get('*/api/screenroom/jobs/j1/pipeline', ({ request }) => {
      countRequests.push(request.url);
      const answer = countsAnswer();
      if ('status' in answer && !('total' in answer)) {
        return HttpResponse.json({ status: answer.status, message: 'Internal failure in hook foo.', data: {} }, { status: answer.status });
      }
      return HttpResponse.json(answer);
    }),
    // a page of the pipeline: GET /api/screenroom/jobs/{id}/candidates, counted always
    // (server/internal/pipeline/pipeline_page.go)
    http.get('*/api/screenroom/jobs/j1/candidates', ({ request }) => {
      const params = new URL(request.url).searchParams;
      requests.push(params);
      const answer = list(params);
      if ('status' in answer) {
        return HttpResponse.json({ status: answer.status, message: 'SQL logic error near "~".', data: {} }, { status: answer.status });
      }
      const page = Number(params.get('page'));
      const perPage = Number(params.get('perPage'));
      const totalItems = answer.totalItems ?? answer.items.length;
      return HttpResponse.json({
        page,
        perPage,
        totalItems,
        totalPages: answer.totalPages ?? Math.ceil(totalItems / perPage),
        items: answer.items,
      });
    }),
  );
  return { requests, countRequests };
}

function start(path = '/companies/c1/jobs/j1') {
  signInAs({ primaryCompany: 'c1' });
  return renderRoute(path);
}

const table = () => screen.findByRole('table', { name: 'Candidates' });
const emails = (candidates: HTMLElement) => within(candidates).getAllByRole('rowheader').map((cell) => cell.textContent);
/** The order a page request asks for: "{sort} {dir}". */
const order = (params: URLSearchParams) => `${params.get('sort')} ${params.get('dir')}`;
/** The filter a page request asks for: its status, decision and search (null when none). */
const filterOf = (params: URLSearchParams) => ({ status: params.get('status'), decision: params.get('decision'), q: params.get('q') });

describe('the candidate pipeline', () => {
  beforeEach(() => managerShellApi());

  it("shows each candidate's status, rating and decision, and the counts per status, from one page request", async () => {
    const { requests } = pipelineApi({
      list: () => ({
        items: [
          row('k1', 'ann@example.com'),
          row('k2', 'bob@example.com', { status: 'started', answeredCount: 2, averageRating: 3.5, ratingsCount: 1 }),
          row('k3', 'cy@example.com', {
            status: 'completed',
            answeredCount: 5,
            completedAt: '2024-03-04 12:00:00.000Z',
            averageRating: 4.333,
            ratingsCount: 6,
            decision: 'advance',
            decisionAt: '2024-03-05 09:30:00.000Z',
            expand: { decisionBy: { id: 'u2', firstName: 'Maria', lastName: 'Manager' } },
          }),
          row('k4', 'di@example.com', { status: 'completed', answeredCount: 5, completedAt: '2024-03-06 12:00:00.000Z', decision: 'reject', decisionAt: '2024-03-07 08:00:00.000Z' }),
        ],
        totalItems: 47,
      }),
    });
    start();

    const candidates = await table();
    expect(await screen.findByText('12 invited · 4 started · 31 completed')).toBeInTheDocument();
    // the first column holds the boxes that pick rows for a bulk action
    expect(within(candidates).getAllByRole('columnheader').map((cell) => cell.textContent?.replace(/[▲▼↕]/g, ''))).toEqual([
      '',
      'Email',
      'Invited on',
      'Status',
      'Rating',
      'Decision',
    ]);
    const rows = within(candidates).getAllByRole('row').slice(1);
    const cells = (index: number) => within(rows[index]!).getAllByRole('cell').slice(1);

    expect(cells(0)[0]).toHaveTextContent(formatDay('2024-03-01 10:00:00.000Z'));
    expect(within(cells(0)[0]!).getByText(formatDay('2024-03-01 10:00:00.000Z'))).toHaveAttribute('title', formatDate('2024-03-01 10:00:00.000Z'));
    expect(cells(0)[1]).toHaveTextContent(/^Invited$/);
    expect(within(cells(0)[2]!).getByText('—')).toHaveAttribute('title', 'No ratings yet');
    expect(cells(0)[2]).toHaveTextContent('No ratings yet');
    expect(cells(0)[3]).toHaveTextContent('No decision');

    expect(cells(1)[1]).toHaveTextContent(/^Started 2 of 5$/);
    expect(within(cells(1)[2]!).getByText('3.5 ★')).toHaveAttribute('title', '3.5 out of 5 from 1 rating');

    expect(cells(2)[1]).toHaveTextContent(`Completed${formatDay('2024-03-04 12:00:00.000Z')}`);
    expect(within(cells(2)[2]!).getByText('4.3 ★')).toHaveAttribute('title', '4.3 out of 5 from 6 ratings');
    expect(within(cells(2)[2]!).getByText('4.3 out of 5 from 6 ratings')).toBeInTheDocument();
    expect(within(cells(2)[3]!).getByText('Advance')).toBeInTheDocument();
    expect(cells(2)[3]).toHaveTextContent(`Advance by Maria Manager on ${formatDate('2024-03-05 09:30:00.000Z')}`);
    // who and when come up on keyboard focus too: the decision can be tabbed to
    expect(within(cells(2)[3]!).getByText('Advance').parentElement).toHaveAttribute('tabindex', '0');
    // a decision whose author is no longer a fellow manager (no expand) still says when
    expect(cells(3)[3]).toHaveTextContent(`Reject on ${formatDate('2024-03-07 08:00:00.000Z')}`);

    // one request: the first page of 30 by the default order (the route answers the table's fields only)
    expect(requests).toHaveLength(1);
    const params = requests[0]!;
    expect(Object.fromEntries(params)).toEqual({ page: '1', perPage: '30', sort: 'created', dir: 'desc' });
    // the pages come from the page's total (47 candidates: 2 pages of 30)
    expect(within(screen.getByRole('navigation', { name: 'Candidate pages' })).getByText('Page 1 of 2')).toBeInTheDocument();
  });

  it("shows each open invitation's deadline, 'Closed' once it has passed and 'Withdrawn' (issue 17)", async () => {
    pipelineApi({
      list: () => ({
        items: [
          row('k1', 'ann@example.com', { deadline: '2999-12-01 17:00:00.000Z' }),
          row('k2', 'bob@example.com', { status: 'started', answeredCount: 1, deadline: '2020-01-01 09:00:00.000Z' }),
          row('k3', 'cy@example.com', { deadline: '2999-12-01 17:00:00.000Z', withdrawn: true }),
          row('k4', 'di@example.com'),
          // a completed interview's deadline no longer matters
          row('k5', 'ed@example.com', { status: 'completed', answeredCount: 5, completedAt: '2024-03-04 12:00:00.000Z', deadline: '2020-01-01 09:00:00.000Z' }),
        ],
      }),
    });
    start();
    const candidates = await table();
    const rows = within(candidates).getAllByRole('row').slice(1);
    const status = (index: number) => within(rows[index]!).getAllByRole('cell')[2]!;
    expect(status(0)).toHaveTextContent(`InvitedDue ${formatDeadline('2999-12-01 17:00:00.000Z')}`);
    expect(status(1)).toHaveTextContent(/^Started 1 of 5Closed$/);
    expect(within(status(1)).getByText('Closed')).toHaveAttribute('title', `The deadline was ${formatDeadline('2020-01-01 09:00:00.000Z')}`);
    expect(status(2)).toHaveTextContent(/^InvitedWithdrawn$/);
    expect(status(3)).toHaveTextContent(/^Invited$/);
    expect(status(4)).toHaveTextContent(`Completed${formatDay('2024-03-04 12:00:00.000Z')}`);
    expect(status(4)).not.toHaveTextContent('Closed');
  });

  it('sorts by a column header, then the other way, with aria-sort and the order in the URL', async () => {
    const all = [row('k1', 'bob@example.com'), row('k2', 'ann@example.com'), row('k3', 'cy@example.com')];
    const { requests } = pipelineApi({
      list: (params) => {
        const items = [...all];
        if (order(params) === 'email asc') items.sort((a, b) => a.email.localeCompare(b.email));
        if (order(params) === 'email desc') items.sort((a, b) => b.email.localeCompare(a.email));
        return { items };
      },
    });
    const user = userEvent.setup();
    const { router } = start();

    const candidates = await table();
    expect(emails(candidates)).toEqual(['bob@example.com', 'ann@example.com', 'cy@example.com']);
    expect(within(candidates).getByRole('columnheader', { name: 'Invited on' })).toHaveAttribute('aria-sort', 'descending');
    expect(within(candidates).getByRole('columnheader', { name: 'Email' })).not.toHaveAttribute('aria-sort');

    await user.click(within(candidates).getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(emails(candidates)).toEqual(['ann@example.com', 'bob@example.com', 'cy@example.com']));
    expect(within(candidates).getByRole('columnheader', { name: 'Email' })).toHaveAttribute('aria-sort', 'ascending');
    expect(within(candidates).getByRole('columnheader', { name: 'Invited on' })).not.toHaveAttribute('aria-sort');
    expect(order(requests.at(-1)!)).toBe('email asc');
    expect(router.state.location.search).toBe('?sort=email&dir=asc');

    await user.click(within(candidates).getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(emails(candidates)).toEqual(['cy@example.com', 'bob@example.com', 'ann@example.com']));
    expect(within(candidates).getByRole('columnheader', { name: 'Email' })).toHaveAttribute('aria-sort', 'descending');
    expect(order(requests.at(-1)!)).toBe('email desc');
    expect(router.state.location.search).toBe('?sort=email');

    // the other columns: status (the server sorts it by answers stored), rating, decision
    await user.click(within(candidates).getByRole('button', { name: 'Status' }));
    await waitFor(() => expect(order(requests.at(-1)!)).toBe('status desc'));
    await user.click(within(candidates).getByRole('button', { name: 'Rating' }));
    await waitFor(() => expect(order(requests.at(-1)!)).toBe('averageRating desc'));
    await user.click(within(candidates).getByRole('button', { name: 'Decision' }));
    await waitFor(() => expect(order(requests.at(-1)!)).toBe('decision asc'));
    expect(within(candidates).getByRole('columnheader', { name: 'Decision' })).toHaveAttribute('aria-sort', 'ascending');
  });

  it('filters by status and decision on the server, back to the first page', async () => {
    const { requests } = pipelineApi({
      list: (params) => {
        const { status, decision } = filterOf(params);
        if (status === 'completed' && decision === 'none') return { items: [row('k9', 'undecided@example.com', { status: 'completed' })] };
        if (status === 'completed') return { items: [row('k8', 'done@example.com', { status: 'completed' })] };
        return { items: Array.from({ length: 30 }, (_, i) => row(`k${i}`, `c${i}@example.com`)), totalItems: 65 };
      },
      countsAnswer: () => ({ ...counts, total: 65 }),
    });
    const user = userEvent.setup();
    const { router } = start('/companies/c1/jobs/j1?page=2');

    const candidates = await table();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Status')).getAllByRole('option').map((o) => o.textContent)).toEqual(['All', 'Invited', 'Started', 'Completed']);
    expect(within(screen.getByLabelText('Decision')).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'All',
      'Advance',
      'Hold',
      'Reject',
      'No decision',
    ]);

    await user.selectOptions(screen.getByLabelText('Status'), 'Completed');
    await waitFor(() => expect(emails(candidates)).toEqual(['done@example.com']));
    expect(filterOf(requests.at(-1)!)).toEqual({ status: 'completed', decision: null, q: null });
    expect(requests.at(-1)!.get('page')).toBe('1');
    expect(router.state.location.search).toBe('?status=completed');

    await user.selectOptions(screen.getByLabelText('Decision'), 'No decision');
    await waitFor(() => expect(emails(candidates)).toEqual(['undecided@example.com']));
    expect(filterOf(requests.at(-1)!)).toEqual({ status: 'completed', decision: 'none', q: null });
    expect(router.state.location.search).toBe('?status=completed&decision=none');
    expect(screen.getByLabelText('Status')).toHaveValue('completed');

    await user.selectOptions(screen.getByLabelText('Decision'), 'Hold');
    await waitFor(() => expect(filterOf(requests.at(-1)!)).toEqual({ status: 'completed', decision: 'hold', q: null }));

    // two changes before the first one's navigation landed: neither undoes the other
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'started' } });
    fireEvent.change(screen.getByLabelText('Decision'), { target: { value: 'reject' } });
    await waitFor(() => expect(router.state.location.search).toBe('?status=started&decision=reject'));
    await waitFor(() => expect(filterOf(requests.at(-1)!)).toEqual({ status: 'started', decision: 'reject', q: null }));
  });

  it('searches by e-mail once typing pauses, not at every key', async () => {
    const { requests } = pipelineApi({
      list: (params) => {
        const { q } = filterOf(params);
        if (q === 'bob') return { items: [row('k1', 'bob@example.com')] };
        if (q) return { items: [row('k2', 'ann@example.com')] };
        return { items: [row('k1', 'bob@example.com'), row('k2', 'ann@example.com')] };
      },
    });
    const { router } = start('/companies/c1/jobs/j1?page=2&sort=email&dir=asc');
    const candidates = await table();
    const search = screen.getByLabelText('Search by e-mail');

    // three keys in one go (nothing can run between them): one request, for all three
    fireEvent.change(search, { target: { value: 'a' } });
    fireEvent.change(search, { target: { value: 'an' } });
    fireEvent.change(search, { target: { value: 'ann' } });
    await waitFor(() => expect(emails(candidates)).toEqual(['ann@example.com']));
    const searches = requests.filter((params) => params.has('q'));
    expect(searches).toHaveLength(1);
    expect(searches.map((params) => params.get('q'))).toEqual(['ann']);
    expect(searches[0]!.get('page')).toBe('1');
    expect(order(searches[0]!)).toBe('email asc');
    expect(router.state.location.search).toBe('?sort=email&dir=asc&q=ann');
    expect(search).toHaveValue('ann');

    // a URL changed elsewhere (a link, back and forward) puts its search in the box
    await router.navigate('/companies/c1/jobs/j1?q=bob');
    await waitFor(() => expect(search).toHaveValue('bob'));
    await waitFor(() => expect(filterOf(requests.at(-1)!)).toEqual({ status: null, decision: null, q: 'bob' }));
    await router.navigate(-1);
    await waitFor(() => expect(search).toHaveValue('ann'));
    expect(router.state.location.search).toBe('?sort=email&dir=asc&q=ann');
  });

  it("pages 30 at a time with previous and next; each row's link carries the order, the filter and its index", async () => {
    const { requests } = pipelineApi({
      list: (params) => {
        const page = Number(params.get('page'));
        const size = page === 3 ? 5 : 30;
        return { items: Array.from({ length: size }, (_, i) => row(`p${page}r${i}`, `p${page}-${i}@example.com`)), totalItems: 65 };
      },
      countsAnswer: () => ({ ...counts, completed: 65 }),
    });
    const user = userEvent.setup();
    const { router } = start('/companies/c1/jobs/j1?sort=averageRating&status=completed');

    const candidates = await table();
    expect(within(candidates).getAllByRole('rowheader')).toHaveLength(30);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Candidate pages' });
    expect(within(pager).getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(within(candidates).getByRole('link', { name: 'p1-0@example.com' })).toHaveAttribute(
      'href',
      '/companies/c1/jobs/j1/candidates/p1r0?sort=averageRating&status=completed&i=0',
    );

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await within(candidates).findByRole('link', { name: 'p2-0@example.com' })).toHaveAttribute(
      'href',
      '/companies/c1/jobs/j1/candidates/p2r0?sort=averageRating&status=completed&page=2&i=30',
    );
    expect(within(candidates).getByRole('link', { name: 'p2-29@example.com' })).toHaveAttribute(
      'href',
      '/companies/c1/jobs/j1/candidates/p2r29?sort=averageRating&status=completed&page=2&i=59',
    );
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?sort=averageRating&status=completed&page=2');
    expect(requests.at(-1)!.get('page')).toBe('2');
    expect(requests.at(-1)!.get('perPage')).toBe('30');

    await user.click(within(pager).getByRole('button', { name: 'Next' }));
    expect(await within(candidates).findByRole('link', { name: 'p3-4@example.com' })).toHaveAttribute(
      'href',
      '/companies/c1/jobs/j1/candidates/p3r4?sort=averageRating&status=completed&page=3&i=64',
    );
    expect(within(candidates).getAllByRole('rowheader')).toHaveLength(5);
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();

    await user.click(within(pager).getByRole('button', { name: 'Previous' }));
    expect(await within(candidates).findByRole('link', { name: 'p2-0@example.com' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('shows the last page for a page past the end', async () => {
    const { requests } = pipelineApi({
      list: (params) => (params.get('page') === '2' ? { items: [row('k31', 'last@example.com')], totalItems: 31 } : { items: [], totalItems: 31 }),
      countsAnswer: () => ({ ...counts, total: 31 }),
    });
    const { router } = start('/companies/c1/jobs/j1?page=9');
    expect(await screen.findByRole('link', { name: 'last@example.com' })).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
    expect(requests.map((params) => params.get('page'))).toEqual(['9', '2']);
  });

  it("says 'No candidates yet' for a job without candidates, and 'No candidates match' for a filter that finds none", async () => {
    pipelineApi({ list: () => ({ items: [] }), countsAnswer: () => ({ ...counts, total: 0, invited: 0, started: 0, completed: 0 }) });
    const user = userEvent.setup();
    start();
    expect(await screen.findByText(/^No candidates yet\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Invite your first candidate' })).toHaveAttribute('href', '#invite-candidate');
    expect(screen.getByText('0 invited · 0 started · 0 completed')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Candidates' })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Decision'), 'Advance');
    expect(await screen.findByText('No candidates match')).toBeInTheDocument();
    expect(screen.queryByText(/^No candidates yet/)).not.toBeInTheDocument();
  });

  it("keeps the page when the list or the counts do not load, in the product's words, and tries again", async () => {
    let fail = true;
    pipelineApi({
      list: () => (fail ? { status: 500 } : { items: [row('k1', 'ann@example.com')] }),
      countsAnswer: () => ({ status: 500 }),
    });
    const user = userEvent.setup();
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      start();
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('The candidates could not be loaded. Something went wrong while processing your request.');
      expect(alert).not.toHaveTextContent('SQL');
      expect(await screen.findByText('The counts could not be loaded.')).toBeInTheDocument();
      // the rest of the page stays
      expect(screen.getByRole('heading', { level: 1, name: 'Senior Engineer' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Invite' })).toBeInTheDocument();
      expect(screen.getByLabelText('Search by e-mail')).toBeInTheDocument();

      fail = false;
      await user.click(within(alert).getByRole('button', { name: 'Try again' }));
      expect(await screen.findByRole('link', { name: 'ann@example.com' })).toBeInTheDocument();
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    } finally {
      console.error = original;
    }
  });

  it('refreshes the list and the counts after an invite', async () => {
    const stored = [row('k1', 'bob@example.com')];
    let current = { ...counts, total: 1, invited: 1, started: 0, completed: 0 };
    const { requests, countRequests } = pipelineApi({ list: () => ({ items: [...stored] }), countsAnswer: () => current });
    server.use(
      http.post('*/api/collections/candidates/records', async ({ request }) => {
        const body = (await request.json()) as { email: string; job: string };
        expect(body).toEqual({ email: 'ada@example.com', job: 'j1', deadline: '' });
        const created = row('k2', body.email);
        stored.unshift(created);
        current = { ...current, total: 2, invited: 2 };
        return HttpResponse.json({ ...created, job: 'j1', collectionName: 'candidates', collectionId: 'x', updated: created.created });
      }),
    );
    const user = userEvent.setup();
    start();
    const candidates = await table();
    expect(await screen.findByText('1 invited · 0 started · 0 completed')).toBeInTheDocument();
    expect(requests).toHaveLength(1);
    expect(countRequests).toHaveLength(1);

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await within(candidates).findByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
      'href',
      '/companies/c1/jobs/j1/candidates/k2?i=0',
    );
    expect(await screen.findByText('2 invited · 0 started · 0 completed')).toBeInTheDocument();
    expect(emails(candidates)).toEqual(['ada@example.com', 'bob@example.com']);
    expect(requests).toHaveLength(2);
    expect(countRequests).toHaveLength(2);
  });
});
