import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { Collections, type JobsResponse } from '@/lib/pocketbase-types';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { buildCompany, managerShellApi } from '@/testing/manager-shell-api';
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

  describe('written by the server (pocketbase/company_home_screen.go)', () => {
    /** The JSON script element the server writes into the page's head with the company home. */
    function writtenReads(user: string) {
      const element = document.createElement('script');
      element.type = 'application/json';
      element.id = 'screenroom-company-home'; // src/app/prefetch.ts, pocketbase/company_home_screen.go
      element.textContent = JSON.stringify({
        user,
        company: 'c1',
        companies: [buildCompany({ id: 'c1', name: 'Written Corp' })],
        jobs: [job('j1', 'Written Engineer')],
        counts: { jobs: { j1: { total: 9, invited: 4, started: 3, completed: 2 } } },
      });
      document.head.append(element);
      return element;
    }

    it('starts from the reads in the page, without asking for them again', async () => {
      signInAs({ id: 'u1', primaryCompany: 'c1' });
      const asked: string[] = [];
      server.use(
        http.get('*/api/collections/companies/records', ({ request }) => {
          asked.push(request.url);
          return HttpResponse.json({ page: 1, perPage: 1000, totalItems: -1, totalPages: -1, items: [] });
        }),
        http.get('*/api/screenroom/companies/:companyId/jobs', ({ request }) => {
          asked.push(request.url);
          return HttpResponse.json([]);
        }),
        http.get('*/api/screenroom/companies/:companyId/job-counts', ({ request }) => {
          asked.push(request.url);
          return HttpResponse.json({ jobs: {} });
        }),
      );
      const element = writtenReads('u1');
      appQueryClient.clear();
      renderRoute('/companies/c1', { queryClient: appQueryClient });

      const row = await screen.findByRole('row', { name: /Written Engineer/ });
      expect(cellsOf(row).slice(0, 3)).toEqual(['4', '3', '2']);
      expect(screen.getByRole('combobox', { name: 'Company' })).toHaveTextContent('Written Corp');
      expect(asked).toEqual([]);
      // taken once: a later visit reads anew
      expect(element.isConnected).toBe(false);
      appQueryClient.clear();
    });

    it("ignores reads made for another user's session", async () => {
      signInAs({ id: 'u2', primaryCompany: 'c1' });
      managerShellApi({ jobs: [job('j7', 'Read Engineer')] });
      const element = writtenReads('u1');
      appQueryClient.clear();
      renderRoute('/companies/c1/jobs', { queryClient: appQueryClient });

      await screen.findByRole('row', { name: /Read Engineer/ });
      expect(screen.queryByText('Written Engineer')).not.toBeInTheDocument();
      expect(element.isConnected).toBe(false);
      appQueryClient.clear();
    });
  });
});
