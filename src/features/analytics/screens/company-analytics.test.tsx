import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { queryClient } from '@/lib/query-client';
import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import type { AnalyticsFigures } from '../api/analytics-queries';

afterEach(() => queryClient.clear());

const figures: AnalyticsFigures = {
  scope: 'company',
  id: 'c1',
  title: 'Acme',
  asOf: '2024-03-20 10:00:00.000Z',
  refreshing: false,
  timeZone: 'UTC',
  funnel: { invited: 12, linkOpened: 9, agreed: 8, started: 7, completed: 5, decided: 2 },
  decisions: { advance: 2, hold: 0, reject: 0 },
  questions: [
    { id: 'q2', title: 'Your best project', position: 0, reached: 6, answered: 5, stopped: 2 },
    { id: 'q1', title: 'Why us?', position: 0, reached: 7, answered: 6, stopped: 1 },
  ],
  timeToComplete: { candidates: 0, medianSeconds: null, p90Seconds: null },
  inviteToComplete: { candidates: 0, medianSeconds: null, p90Seconds: null },
  weeks: [{ week: '2024-03-18', invited: 2, completed: 1 }],
  earlierWeeks: { before: '2024-03-18', invited: 10, completed: 4 },
  reminders: { reminded: { candidates: 0, completed: 0, completedAfter: 0 }, notReminded: { candidates: 12, completed: 5 } },
  jobs: [
    { id: 'j1', title: 'Designer', archived: false, closed: true, invited: 2, started: 1, completed: 1, decided: 0 },
    { id: 'j2', title: 'Engineer', archived: false, closed: false, invited: 10, started: 6, completed: 4, decided: 2 },
  ],
};

describe('a company’s analytics', () => {
  it('lists its jobs, most invited first, each linking to its own figures, and the questions where most stopped', async () => {
    server.use(http.get(`${env.apiUrl}/api/screenroom/companies/c1/analytics`, () => HttpResponse.json(figures)));
    managerShellApi();
    signInAs({ primaryCompany: 'c1' });
    renderRoute('/companies/c1/analytics');
    expect(await screen.findByRole('heading', { level: 1, name: 'Analytics: Acme' })).toBeInTheDocument();
    const jobs = within(screen.getByRole('table', { name: 'Each job, most invited first' })).getAllByRole('row').slice(1);
    expect(jobs.map((row) => row.textContent)).toEqual(['Engineer1064240%', 'Designer (closed)211050%']);
    expect(within(jobs[0]!).getByRole('link', { name: 'Engineer' })).toHaveAttribute('href', '/companies/c1/jobs/j2/analytics');
    const questions = within(screen.getByRole('table', { name: 'Drop-off per question' })).getAllByRole('row').slice(1);
    expect(questions.map((row) => row.textContent)).toEqual(['Your best project652', 'Why us?761']);
    // the weeks before the latest year, summed in one row first
    const weeks = within(screen.getByRole('table', { name: 'Completion rate by invite week' })).getAllByRole('row').slice(1);
    expect(weeks.map((row) => row.textContent)).toEqual(['Before Mar 18, 202410440%', 'Mar 18, 20242150%']);
    expect(within(screen.getByRole('table', { name: 'Time to complete' })).getAllByRole('row')[1]).toHaveTextContent('From the first question opened——0');
    expect(screen.getByRole('link', { name: 'Back to the jobs' })).toHaveAttribute('href', '/companies/c1/jobs');
  });
});
