import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const base = { collectionId: 'x', created: '2024-03-01 10:00:00.000Z', updated: '2024-03-01 10:00:00.000Z' };
const question = (id: string, title: string) => ({
  ...base,
  id,
  title,
  collectionName: 'questions',
  company: 'c1',
  description: 'd',
  timeout: 60,
  canPreview: true,
});
const candidate = (id: string, email: string) => ({
  ...base,
  id,
  email,
  job: 'j1',
  collectionName: 'candidates',
  status: 'invited',
  answeredCount: 0,
  averageRating: 0,
  ratingsCount: 0,
});
const list = <T,>(items: T[]) => ({ page: 1, perPage: 30, totalItems: items.length, totalPages: items.length ? 1 : 0, items });
const noCounts = { total: 0, invited: 0, started: 0, completed: 0, decisions: { advance: 0, hold: 0, reject: 0, none: 0 } };
const pipelineCounts = (counts = noCounts) => http.get('*/api/screenroom/jobs/j1/pipeline', () => HttpResponse.json(counts));

const job = {
  ...base,
  id: 'j1',
  collectionName: 'jobs',
  company: 'c1',
  title: 'Senior Engineer',
  description: 'Build the product.',
  location: 'Remote',
  questions: ['q2', 'q1'],
  // The expand's order is not the job's: the screen follows `questions`.
  expand: { questions: [question('q1', 'First in the bank'), question('q2', 'First in the job')] },
};

describe('job detail', () => {
  // The shell around the screen: the switcher lists the user's company, c1.
  beforeEach(() => managerShellApi());

  it("shows the job, its questions in the job's order and its candidates linking to their review", async () => {
    signInAs({ primaryCompany: 'c1' });
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job)),
      http.get('*/api/collections/candidates/records', () => HttpResponse.json(list([candidate('k1', 'grace@example.com')]))),
      pipelineCounts({ ...noCounts, total: 1, invited: 1, decisions: { ...noCounts.decisions, none: 1 } }),
    );
    renderRoute('/companies/c1/jobs/j1');

    expect(await screen.findByRole('heading', { level: 1, name: 'Senior Engineer' })).toBeInTheDocument();
    expect(screen.getByText('Build the product.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/companies/c1/jobs/j1/edit');
    const questions = screen.getByRole('table', { name: 'Questions' });
    expect(within(questions).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual([
      'First in the job',
      'First in the bank',
    ]);
    const candidates = await screen.findByRole('table', { name: 'Candidates' });
    expect(within(candidates).getByRole('columnheader', { name: 'Invited on' })).toBeInTheDocument();
    expect(within(candidates).getByRole('link', { name: 'grace@example.com' })).toHaveAttribute(
      'href',
      '/companies/c1/jobs/j1/candidates/k1?i=0',
    );
    expect(screen.getByText('1 invited · 0 started · 0 completed')).toBeInTheDocument();
  });

  it('adds an invited candidate to the pipeline, and shows a duplicate invite under the e-mail', async () => {
    signInAs({ primaryCompany: 'c1' });
    const stored: ReturnType<typeof candidate>[] = [];
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job)),
      http.get('*/api/collections/candidates/records', () => HttpResponse.json(list(stored))),
      pipelineCounts(),
      http.post('*/api/collections/candidates/records', async ({ request }) => {
        const body = (await request.json()) as { email: string; job: string };
        expect(body).toEqual({ email: 'ada@example.com', job: 'j1' });
        if (stored.length > 0) {
          return HttpResponse.json(
            {
              status: 400,
              message: 'Failed to create record.',
              data: { email: { code: 'validation_not_unique', message: 'This candidate has already been invited.' } },
            },
            { status: 400 },
          );
        }
        stored.push(candidate('k2', body.email));
        return HttpResponse.json(stored[0]);
      }),
    );
    const user = userEvent.setup();
    renderRoute('/companies/c1/jobs/j1');

    expect(await screen.findByText('No candidates yet')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByRole('link', { name: 'ada@example.com' })).toHaveAttribute(
      'href',
      '/companies/c1/jobs/j1/candidates/k2?i=0',
    );
    expect(screen.getByLabelText('Email')).toHaveValue('');

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('This candidate has already been invited')).toBeInTheDocument();
  });

  it('asks for a valid e-mail before inviting', async () => {
    signInAs({ primaryCompany: 'c1' });
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job)),
      http.get('*/api/collections/candidates/records', () => HttpResponse.json(list([]))),
      pipelineCounts(),
    );
    const user = userEvent.setup();
    renderRoute('/companies/c1/jobs/j1');
    await user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
  });

  it("says what happened in place of the page when the job does not load, not the server's words", async () => {
    signInAs({ primaryCompany: 'c1', firstName: 'Grace', lastName: 'Hopper' });
    server.use(
      http.get('*/api/collections/jobs/records/nope', () =>
        HttpResponse.json({ status: 404, message: "The requested resource wasn't found.", data: {} }, { status: 404 }),
      ),
    );
    renderRoute('/companies/c1/jobs/nope');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This job could not be found: it may have been deleted, or it belongs to a company you don't manage.",
    );
    expect(screen.queryByText(/requested resource/)).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Candidates' })).not.toBeInTheDocument();
    // Inside the shell.
    expect(screen.getByText('Grace Hopper')).toBeInTheDocument();
  });
});
