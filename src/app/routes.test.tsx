import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { buildCompany, fullList, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';

import { companyQueries } from '@/features/companies/api/company-queries';
import { jobQueries } from '@/features/jobs/api/job-queries';
import { pb } from '@/lib/pocketbase';
import { Collections, type JobsResponse, type QuestionsResponse, type VideoQuestionsResponse } from '@/lib/pocketbase-types';
import { queryClient as appQueryClient } from '@/lib/query-client';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import { prefetchJobsList, prefetchShell } from './prefetch';

async function expectScreen(view: ReturnType<typeof renderRoute>, url: string, heading: string) {
  expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  const { pathname, search } = view.router.state.location;
  expect(pathname + search).toBe(url);
}

describe('route table', () => {
  // What the shell and the confirm screens ask the server for; this suite is about the routes only.
  beforeEach(() => {
    managerShellApi();
    server.use(
      http.post('*/api/collections/users/confirm-verification', () =>
        HttpResponse.json({ status: 400, message: 'Invalid or expired verification token.', data: {} }, { status: 400 }),
      ),
    );
  });

  describe('signed out', () => {
    it.each(['/', '/preferences', '/preferences/password', '/companies/new', '/companies/x/jobs', '/companies/x'])(
      'sends %s to sign-in',
      async (path) => {
        const view = renderRoute(path);
        await expectScreen(view, '/auth/sign-in', 'Sign In');
      },
    );

    it.each([
      ['/auth/sign-in', 'Sign In'],
      ['/auth/sign-up', 'Sign Up'],
      ['/auth/reset-password', 'Reset Password'],
    ])('shows %s in the auth card', async (path, heading) => {
      const view = renderRoute(path);
      await expectScreen(view, path, heading);
      expect(screen.getByText('Screenroom')).toBeInTheDocument();
      expect(screen.getByText('© 2024 Screenroom')).toBeInTheDocument();
      expect(screen.getByRole('link', { name: /powered by pocketbase/i })).toBeInTheDocument();
    });

    it.each([
      ['/invites/i1/ada%40example.com', 'Company invitation'],
      ['/auth/confirm-verification/t0k3n', 'Confirm your email'],
      ['/auth/confirm-password-reset/t0k3n', 'Set a new password'],
      ['/auth/confirm-email-change/t0k3n', 'Confirm email change'],
    ])('lets anyone open the public route %s', async (path, heading) => {
      const view = renderRoute(path);
      await expectScreen(view, path, heading);
    });

    // The candidate routes load the interview first: src/features/interview/screens/interview-screens.test.tsx.

    it('treats an expired session as signed out', async () => {
      signInAs({ primaryCompany: 'c1' }, { expiresInSeconds: -60 });
      const view = renderRoute('/companies/c1/jobs');
      await expectScreen(view, '/auth/sign-in', 'Sign In');
    });
  });

  describe('signed in', () => {
    it('sends the auth screens home to the primary company', async () => {
      signInAs({ primaryCompany: 'c1' });
      const view = renderRoute('/auth/sign-in');
      await expectScreen(view, '/companies/c1/jobs', 'Jobs');
    });

    it('returns a user who signed in from an invite link to the invite', async () => {
      signInAs({ primaryCompany: 'c1', email: 'ada@example.com' });
      serveInvite('i1', 'ada@example.com');
      const view = renderRoute('/auth/sign-in?redirect=%2Finvites%2Fi1%2Fada%2540example.com');
      await expectScreen(view, '/invites/i1/ada%40example.com', 'Company invitation');
    });

    it.each(['//evil.example/x', 'https://evil.example/x', 'javascript:alert(1)'])(
      'ignores a redirect to %s and goes home',
      async (target) => {
        signInAs({ primaryCompany: 'c1' });
        const view = renderRoute(`/auth/sign-in?redirect=${encodeURIComponent(target)}`);
        await expectScreen(view, '/companies/c1/jobs', 'Jobs');
      },
    );

    it('sends a user without a company to create one', async () => {
      signInAs({ primaryCompany: '' });
      const view = renderRoute('/auth/sign-up');
      await expectScreen(view, '/companies/new', 'Create company');
    });

    it.each([
      ['c1', '/companies/c1/jobs', 'Jobs'],
      ['', '/companies/new', 'Create company'],
    ])('sends / (primaryCompany %j) to %s', async (primaryCompany, url, heading) => {
      signInAs({ primaryCompany });
      const view = renderRoute('/');
      await expectScreen(view, url, heading);
    });

    it('shows the shell with a link home and the user name', async () => {
      signInAs({ primaryCompany: 'c1', firstName: 'Grace', lastName: 'Hopper' });
      serveCompany('c1');
      const view = renderRoute('/companies/c1/questions');
      await expectScreen(view, '/companies/c1/questions', 'Questions');
      expect(screen.getByRole('link', { name: 'Screenroom' })).toHaveAttribute('href', '/');
      expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
    });

    it.each([
      ['/companies/c1', '/companies/c1/jobs', 'Jobs'],
      ['/companies/c1/questions/q1', '/companies/c1/questions/q1/edit', 'Edit question'],
      ['/preferences', '/preferences/profile', 'Profile'],
    ])('redirects %s to %s', async (path, url, heading) => {
      signInAs({ primaryCompany: 'c1' });
      serveCompany('c1');
      const view = renderRoute(path);
      await expectScreen(view, url, heading);
    });

    it.each([
      ['/companies/new', 'Create company'],
      ['/companies/c1/edit', 'General'],
      ['/companies/c1/team', 'Team members'],
      ['/companies/c1/questions/new', 'New question'],
      ['/companies/c1/jobs/new', 'Create job'],
      ['/companies/c1/jobs/j1/edit', 'Edit job'],
      ['/preferences/password', 'Update Password'],
      ['/preferences/email', 'Update Email'],
    ])('shows %s', async (path, heading) => {
      signInAs({ primaryCompany: 'c1' });
      serveCompany('c1');
      const view = renderRoute(path);
      await expectScreen(view, path, heading);
    });

    it('leaves for sign-in as soon as the session ends', async () => {
      signInAs({ primaryCompany: 'c1' });
      const view = renderRoute('/companies/c1/jobs');
      await expectScreen(view, '/companies/c1/jobs', 'Jobs');

      act(() => pb.authStore.clear());

      await expectScreen(view, '/auth/sign-in', 'Sign In');
    });
  });

  it.each(['/sign-in', '/sign-up?invite=a&email=b', '/reset-password?email=b'])(
    'redirects the legacy %s to /auth keeping the query string',
    async (path) => {
      const view = renderRoute(path);
      await waitFor(() => expect(view.router.state.location.pathname).toMatch(/^\/auth\//));
      const { pathname, search } = view.router.state.location;
      expect(pathname + search).toBe(`/auth${path}`);
    },
  );

  it('shows the sign-up screen for a legacy invite link', async () => {
    const view = renderRoute('/sign-up?invite=a&email=b');
    await expectScreen(view, '/auth/sign-up?invite=a&email=b', 'Sign Up');
  });

  it.each(['/nope', '/companies/c1/unknown', '/candidates/abc/elsewhere', '/auth'])(
    'shows the not-found text at %s',
    async (path) => {
      renderRoute(path);
      expect(await screen.findByText('404: No such page!')).toBeInTheDocument();
    },
  );
});

/**
 * The company the company screens load, and what they read of it: no pending invites, one question (q1, a video
 * question) and one job asking it (j1), with the switcher's list of the user's companies and the jobs list.
 */
function serveCompany(id: string) {
  const company = buildCompany({ id });
  const empty = { page: 1, perPage: 500, totalItems: 0, totalPages: 1, items: [] };
  const at = '2024-01-02 10:00:00.000Z';
  const questionRecord: QuestionsResponse = { id: 'q1', collectionId: 'questions', collectionName: Collections.Questions, company: id, title: 'Tell us about yourself', description: 'A minute is enough.', timeout: 60, canPreview: true, archived: false, created: at, updated: at };
  const video: VideoQuestionsResponse = { id: 'vq1', collectionId: 'video_questions', collectionName: Collections.VideoQuestions, question: 'q1', takes: 2, preparation: 30, created: at, updated: at };
  const question = { ...questionRecord, expand: { video_questions_via_question: video } };
  const job: JobsResponse = { id: 'j1', collectionId: 'jobs', collectionName: Collections.Jobs, company: id, title: 'Support engineer', description: 'Help our customers.', location: 'Remote', welcomeMessage: '', responseDays: 0, language: 'en', questions: ['q1'], archived: false, closedAt: '', created: at, updated: at };
  managerShellApi({ companies: [company], jobs: [job] });
  server.use(
    http.get(`${env.apiUrl}/api/collections/companies/records/${id}`, () => HttpResponse.json(company)),
    http.get(`${env.apiUrl}/api/collections/manager_invites/records`, () => HttpResponse.json(empty)),
    // the edit screen's retention preview (issue 19)
    http.get(`${env.apiUrl}/api/screenroom/companies/${id}/retention`, () => HttpResponse.json({ retentionMonths: 0, nextRunAt: '', count: 0, candidates: [] })),
    http.get(`${env.apiUrl}/api/collections/questions/records`, () => HttpResponse.json(fullList([question]))),
    http.get(`${env.apiUrl}/api/collections/questions/records/q1`, () => HttpResponse.json(question)),
    http.get(`${env.apiUrl}/api/collections/jobs/records/j1`, () =>
      HttpResponse.json({ ...job, expand: { questions: [questionRecord] } }),
    ),
  );
}

/** An invite to another company than the user's own (c2, Globex), as its invitee reads it. */
function serveInvite(id: string, email: string) {
  const company = buildCompany({ id: 'c2', name: 'Globex', website: 'https://globex.example.com', managers: ['u2'] });
  const invite = { id, collectionId: 'manager_invites', collectionName: Collections.ManagerInvites, company: company.id, email, created: company.created, updated: company.updated, expand: { company } };
  server.use(http.get(`${env.apiUrl}/api/collections/manager_invites/records/${id}`, () => HttpResponse.json(invite)));
}

describe('the company home', () => {
  beforeEach(() => appQueryClient.clear());
  afterEach(() => appQueryClient.clear());

  it('reads its jobs list and the switcher’s companies once: the route loaders fetch them, the screens reuse them', async () => {
    const calls = { jobs: 0, companies: 0 };
    const job = { id: 'j1', collectionId: 'jobs', collectionName: 'jobs', company: 'c1', title: 'Support engineer', description: '', location: '', questions: [], created: '2024-01-02 10:00:00.000Z', updated: '' };
    const company = { id: 'c1', collectionId: 'companies', collectionName: 'companies', name: 'Acme', website: '', logo: '', managers: ['u1'], created: '', updated: '' };
    const list = (items: unknown[]) => ({ page: 1, perPage: 1000, totalItems: -1, totalPages: -1, items });
    server.use(
      http.get('*/api/screenroom/companies/c1/jobs', () => {
        calls.jobs += 1;
        return HttpResponse.json([job]);
      }),
      http.get('*/api/collections/companies/records', () => {
        calls.companies += 1;
        return HttpResponse.json(list([company]));
      }),
      // the list's candidate counts, read beside it
      http.get('*/api/screenroom/companies/c1/job-counts', () => HttpResponse.json({ jobs: {} })),
    );
    const user = signInAs({ primaryCompany: 'c1' });
    // As on a slow phone: the loaders' reads have arrived before the lazy screens render.
    prefetchShell();
    prefetchJobsList({ params: { companyId: 'c1' } });
    await waitFor(() => expect(appQueryClient.getQueryData(jobQueries.list('c1').queryKey)).toBeDefined());
    await waitFor(() => expect(appQueryClient.getQueryData(companyQueries.list(user.id).queryKey)).toBeDefined());

    const view = renderRoute('/companies/c1', { queryClient: appQueryClient });
    expect(await screen.findByRole('rowheader', { name: 'Support engineer' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/companies/c1/jobs');
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Company' })).toHaveTextContent('Acme'));
    expect(calls).toEqual({ jobs: 1, companies: 1 });
  });
});
