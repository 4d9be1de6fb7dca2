import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { queryClient } from '@/lib/query-client';
import { blobBytes } from '@/testing/blob';
import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import type { AnalyticsFigures } from '../api/analytics-queries';

afterEach(() => {
  queryClient.clear();
  vi.restoreAllMocks();
});

const figures: AnalyticsFigures = {
  scope: 'job',
  id: 'j1',
  title: 'Support engineer',
  asOf: '2024-03-20 10:00:00.000Z',
  refreshing: false,
  timeZone: 'Europe/Berlin',
  funnel: { invited: 8, linkOpened: 6, agreed: 5, started: 4, completed: 2, decided: 3 },
  decisions: { advance: 1, hold: 1, reject: 1 },
  questions: [
    { id: 'q1', title: 'Why us?', position: 1, reached: 4, answered: 3, stopped: 1 },
    { id: 'q2', title: 'Zoë’s project, "quoted"', position: 2, reached: 3, answered: 2, stopped: 1 },
  ],
  timeToComplete: { candidates: 2, medianSeconds: 750, p90Seconds: 3 * 3600 + 300 },
  inviteToComplete: { candidates: 2, medianSeconds: 2 * 86_400 + 3600, p90Seconds: 45 },
  weeks: [
    { week: '2024-03-04', invited: 6, completed: 2 },
    { week: '2024-03-11', invited: 0, completed: 0 },
    { week: '2024-03-18', invited: 2, completed: 0 },
  ],
  earlierWeeks: null,
  reminders: { reminded: { candidates: 3, completed: 1, completedAfter: 1 }, notReminded: { candidates: 5, completed: 1 } },
};

function analyticsApi(answer: AnalyticsFigures | { status: number; message: string }) {
  const asked: string[] = [];
  server.use(
    http.get(`${env.apiUrl}/api/screenroom/jobs/:jobId/analytics`, ({ params }) => {
      asked.push(String(params.jobId));
      return 'status' in answer ? HttpResponse.json({ status: answer.status, message: answer.message, data: {} }, { status: answer.status }) : HttpResponse.json(answer);
    }),
  );
  return asked;
}

function open(path: string) {
  managerShellApi();
  signInAs({ primaryCompany: 'c1' });
  return renderRoute(path);
}

/** A table's rows as the text of their cells. */
function rowsOf(name: string) {
  const table = screen.getByRole('table', { name });
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from(row.querySelectorAll('th, td'), (cell) => cell.textContent));
}

describe('a job’s analytics', () => {
  it('lists every figure in a table beside its chart', async () => {
    const asked = analyticsApi(figures);
    open('/companies/c1/jobs/j1/analytics');
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytics: Support engineer' })).toBeInTheDocument();
    expect(asked).toEqual(['j1']);
    expect(rowsOf('Funnel')).toEqual([
      ['Invited', '8', '—', '—'],
      ['Link opened', '6', '75%', '75%'],
      ['Agreed', '5', '62.5%', '83.3%'],
      ['Started', '4', '50%', '80%'],
      ['Completed', '2', '25%', '50%'],
      ['Decided', '3', '37.5%', '—'],
    ]);
    expect(rowsOf('Decisions')).toEqual([
      ['Advance', '1'],
      ['Hold', '1'],
      ['Reject', '1'],
    ]);
    expect(rowsOf('Drop-off per question')).toEqual([
      ['1. Why us?', '4', '3', '1'],
      ['2. Zoë’s project, "quoted"', '3', '2', '1'],
    ]);
    expect(rowsOf('Time to complete')).toEqual([
      ['From the first question opened', '12 min 30 s', '3 h 5 min', '2'],
      ['From the invite', '2 d 1 h', '45 s', '2'],
    ]);
    expect(rowsOf('Completion rate by invite week')).toEqual([
      ['Mar 4, 2024', '6', '2', '33.3%'],
      ['Mar 11, 2024', '0', '0', '—'],
      ['Mar 18, 2024', '2', '0', '0%'],
    ]);
    expect(rowsOf('Reminders')).toEqual([
      ['Reminded', '3', '1', '33.3%'],
      ['Not reminded', '5', '1', '20%'],
    ]);
    expect(screen.getByText('Completed after their reminder: 1 of the 3 reminded.')).toBeInTheDocument();
    expect(screen.getByText(/invite weeks start on Monday in Europe\/Berlin/)).toBeInTheDocument();
    // each chart is one image named by what it shows, its numbers in the table beside it
    expect(await screen.findByRole('img', { name: /candidates at each stage of the funnel.*table beside it/ })).toBeInTheDocument();
    expect(screen.getAllByRole('img', { name: /table beside it/ })).toHaveLength(5);
    expect(screen.getByRole('link', { name: 'Back to the job' })).toHaveAttribute('href', '/companies/c1/jobs/j1');
    expect(screen.getByRole('link', { name: 'All jobs' })).toHaveAttribute('href', '/companies/c1/analytics');
  });

  it('downloads the tables as one CSV with a byte-order mark', async () => {
    analyticsApi(figures);
    let saved: Blob | undefined;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:analytics';
    });
    URL.revokeObjectURL = vi.fn();
    let name = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    const user = userEvent.setup();
    open('/companies/c1/jobs/j1/analytics');
    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));
    expect(name).toBe('analytics-support-engineer-2024-03-20.csv');
    const bytes = await blobBytes(saved!);
    expect(Array.from(bytes.slice(0, 3))).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes.slice(3)).split('\r\n');
    expect(lines[0]).toBe('Section,Row,Column,Value');
    expect(lines).toContain('Funnel,Agreed,Candidates,5');
    expect(lines).toContain('Funnel,Agreed,% of invited,62.5');
    expect(lines).toContain('Questions,"2. Zoë’s project, ""quoted""",Stopped here,1');
    expect(lines).toContain('Time to complete,From the first question opened,Median (seconds),750');
    expect(lines).toContain('Invite weeks,2024-03-11,Completion rate %,');
    expect(lines).toContain('Reminders,Reminded,Completed after a reminder,1');
  });

  it('reads again while the server counts the latest changes, and Refresh asks for every write counted', async () => {
    const asked: string[] = [];
    const answers = [
      { ...figures, refreshing: true },
      { ...figures, asOf: '2024-03-20 10:00:05.000Z', decisions: { ...figures.decisions, advance: figures.decisions.advance + 1 } },
    ];
    server.use(
      http.get(`${env.apiUrl}/api/screenroom/jobs/:jobId/analytics`, ({ request }) => {
        asked.push(new URL(request.url).search);
        return HttpResponse.json(answers[Math.min(asked.length - 1, answers.length - 1)]);
      }),
    );
    open('/companies/c1/jobs/j1/analytics');
    expect(await screen.findByText(/Counting the latest changes…/)).toBeInTheDocument();
    // read again by itself, and the new figures shown
    await vi.waitFor(() => expect(screen.queryByText(/Counting the latest changes…/)).not.toBeInTheDocument(), { timeout: 5_000 });
    expect(rowsOf('Decisions')[0]).toEqual(['Advance', String(figures.decisions.advance + 1)]);
    expect(asked).toEqual(['', '']);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await vi.waitFor(() => expect(asked).toEqual(['', '', '?fresh=1']));
  });

  it('says when the job is not one of the manager’s', async () => {
    analyticsApi({ status: 404, message: "The requested resource wasn't found." });
    open('/companies/c1/jobs/j9/analytics');
    // the product's own words, never the server's
    expect(await screen.findByRole('alert')).toHaveTextContent("This item doesn't exist any more, or you don't have access to it.");
  });
});
