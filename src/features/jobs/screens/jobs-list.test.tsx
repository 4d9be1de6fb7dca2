import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { Collections, type JobsResponse } from '@/lib/pocketbase-types';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const job = (id: string, title: string): JobsResponse =>
  ({
    id,
    collectionId: 'jobs',
    collectionName: Collections.Jobs,
    company: 'c1',
    title,
    description: 'd',
    location: '',
    questions: [],
    created: '2024-03-01 10:00:00.000Z',
    updated: '2024-03-01 10:00:00.000Z',
  }) as unknown as JobsResponse;

const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);

describe('the jobs list', () => {
  it("shows each job's candidates per status from one request for all jobs, zero for a job without any", async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi({ jobs: [job('j1', 'Frontend Engineer'), job('j2', 'Designer')] });
    let counted = 0;
    server.use(
      http.get('*/api/screenroom/companies/c1/job-counts', () => {
        counted += 1;
        return HttpResponse.json({ jobs: { j1: { total: 6, invited: 3, started: 2, completed: 1 } } });
      }),
      // never one pipeline request per job
      http.get('*/api/screenroom/jobs/:id/pipeline', () => {
        throw new Error('the list must not read each job’s pipeline');
      }),
    );
    // the app's own client, which the route's loader starts the reads in (src/app/prefetch.ts): the screen uses the
    // read in flight, so the counts are asked once however they start
    appQueryClient.clear();
    renderRoute('/companies/c1/jobs', { queryClient: appQueryClient });

    const frontend = await screen.findByRole('row', { name: /Frontend Engineer/ });
    await within(frontend).findByText('3');
    expect(cellsOf(frontend).slice(0, 3)).toEqual(['3', '2', '1']);
    expect(cellsOf(screen.getByRole('row', { name: /Designer/ })).slice(0, 3)).toEqual(['0', '0', '0']);
    for (const header of ['Invited', 'Started', 'Completed']) {
      expect(screen.getByRole('columnheader', { name: header })).toBeInTheDocument();
    }
    expect(counted).toBe(1);
    appQueryClient.clear();
  });

  it("still lists the jobs when the counts fail, with a dash in place of each count", async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi({ jobs: [job('j1', 'Frontend Engineer')] });
    server.use(http.get('*/api/screenroom/companies/c1/job-counts', () => HttpResponse.json({ message: 'boom' }, { status: 500 })));
    renderRoute('/companies/c1/jobs');
    const row = await screen.findByRole('row', { name: /Frontend Engineer/ });
    await within(row).findAllByText('—');
    expect(cellsOf(row).slice(0, 3)).toEqual(['—', '—', '—']);
  });

  it("links an empty list to 'Add your first job'", async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/jobs');
    const link = await screen.findByRole('link', { name: 'Add your first job' });
    expect(link).toHaveAttribute('href', '/companies/c1/jobs/new');
  });
});
