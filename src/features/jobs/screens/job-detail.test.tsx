import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
  beforeEach(() => {
    managerShellApi();
    // the company's question bank, for how each question is answered
    server.use(
      http.get('*/api/collections/questions/records', () =>
        HttpResponse.json({
          ...list([{ ...question('q1', 'First in the bank'), expand: { video_questions_via_question: { ...base, id: 'v1', collectionName: 'video_questions', question: 'q1', takes: 2, preparation: 45 } } }]),
        }),
      ),
    );
  });

  it("shows the job, its questions in the job's order and its candidates linking to their review", async () => {
    signInAs({ primaryCompany: 'c1' });
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job)),
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list([candidate('k1', 'grace@example.com')]))),
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
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list(stored))),
      pipelineCounts(),
      http.post('*/api/collections/candidates/records', async ({ request }) => {
        const body = (await request.json()) as { email: string; job: string };
        // a job without a response time: no deadline, no adjustments
        expect(body).toEqual({ email: 'ada@example.com', job: 'j1', deadline: '' });
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

    expect(await screen.findByText(/^No candidates yet\./)).toBeInTheDocument();
    // the empty pipeline's next step: its link takes the keyboard to the invite form's e-mail
    await user.click(screen.getByRole('link', { name: 'Invite your first candidate' }));
    expect(screen.getByLabelText('Email')).toHaveFocus();
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
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list([]))),
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

  it("shows the job's response time, welcome message, candidate language and how each question is answered", async () => {
    signInAs({ primaryCompany: 'c1' });
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json({ ...job, responseDays: 7, welcomeMessage: 'Hello!\nTake your time.', language: 'fr' })),
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list([]))),
      pipelineCounts(),
    );
    renderRoute('/companies/c1/jobs/j1');
    expect(await screen.findByText('7 days after the invite')).toBeInTheDocument();
    expect(screen.getByTestId('job-welcome-message')).toHaveTextContent('Hello! Take your time.');
    expect(screen.getByText('Candidate language').nextElementSibling).toHaveTextContent(/^Français$/);
    const questions = screen.getByRole('table', { name: 'Questions' });
    expect(await within(questions).findByText('Video · 45 s to prepare · 1 min · 2 takes')).toBeInTheDocument();
  });

  it('says when a job has no response time and no welcome message', async () => {
    signInAs({ primaryCompany: 'c1' });
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json({ ...job, responseDays: 0, welcomeMessage: '' })),
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list([]))),
      pipelineCounts(),
    );
    renderRoute('/companies/c1/jobs/j1');
    expect((await screen.findByText('Response time')).nextElementSibling).toHaveTextContent(/^No deadline$/);
    expect(screen.getByText('Welcome message').nextElementSibling).toHaveTextContent(/^None$/);
    // a job made before languages existed is English
    expect(screen.getByText('Candidate language').nextElementSibling).toHaveTextContent(/^English$/);
    expect(screen.getByLabelText('Deadline')).toHaveValue('');
  });

  it("invites with the job's default deadline, one of the manager's, none, and extra time and takes (issue 17)", async () => {
    signInAs({ primaryCompany: 'c1' });
    const bodies: Record<string, unknown>[] = [];
    const patches: Record<string, unknown>[] = [];
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json({ ...job, responseDays: 3 })),
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list([]))),
      pipelineCounts(),
      http.post('*/api/collections/candidates/records', async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        bodies.push(body);
        // the server gives an invite without a deadline the job's default
        return HttpResponse.json({ ...candidate('k9', String(body.email)), deadline: body.deadline || '2030-01-04 10:00:00.000Z' });
      }),
      http.patch('*/api/collections/candidates/records/k9', async ({ request }) => {
        patches.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json(candidate('k9', 'x@example.com'));
      }),
    );
    const user = userEvent.setup();
    renderRoute('/companies/c1/jobs/j1');

    const deadline = await screen.findByLabelText('Deadline');
    expect(screen.getByText("3 days from now, the job's response time.")).toBeInTheDocument();
    const prefilled = new Date((deadline as HTMLInputElement).value).getTime();
    expect(Math.abs(prefilled - (Date.now() + 3 * 86_400_000))).toBeLessThan(5 * 60_000);
    expect(screen.getByLabelText('Extra time')).toHaveValue('');
    expect(screen.getByLabelText('Extra time').querySelectorAll('option')).toHaveLength(4);
    expect(screen.getByRole('group', { name: 'Adjustments for this candidate' })).toBeInTheDocument();

    // the default deadline as it was pre-filled, with extra time and takes
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.selectOptions(screen.getByLabelText('Extra time'), '2× time');
    await user.type(screen.getByLabelText('Extra takes'), '2');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ email: 'ada@example.com', job: 'j1', deadline: new Date(prefilled).toISOString(), extraTime: '2', extraTakes: 2 });
    // the form starts again, with a fresh default deadline and no adjustments
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue(''));
    expect(screen.getByLabelText('Extra time')).toHaveValue('');
    expect(screen.getByLabelText('Deadline')).not.toHaveValue('');

    // the manager's own deadline
    fireEvent.change(screen.getByLabelText('Deadline'), { target: { value: '2031-06-30T12:15' } });
    await user.type(screen.getByLabelText('Email'), 'bo@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toEqual({ email: 'bo@example.com', job: 'j1', deadline: new Date('2031-06-30T12:15').toISOString() });
    expect(patches).toEqual([]);

    // no deadline at all: the server's default is cleared again
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue(''));
    await user.click(screen.getByRole('button', { name: 'No deadline' }));
    expect(screen.getByLabelText('Deadline')).toHaveValue('');
    await user.type(screen.getByLabelText('Email'), 'cy@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(patches).toEqual([{ deadline: '' }]));
    expect(bodies[2]).toEqual({ email: 'cy@example.com', job: 'j1', deadline: '' });
  });

  it('refuses a past deadline and bad extra takes on their fields, and puts the server\'s refusal of a deadline in its own words', async () => {
    signInAs({ primaryCompany: 'c1' });
    let posts = 0;
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json(job)),
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list([]))),
      pipelineCounts(),
      http.post('*/api/collections/candidates/records', () => {
        posts += 1;
        return HttpResponse.json(
          { status: 400, message: 'Failed to create record.', data: { deadline: { code: 'validation_past_deadline', message: 'Deadline bad (server wording).' } } },
          { status: 400 },
        );
      }),
    );
    const user = userEvent.setup();
    renderRoute('/companies/c1/jobs/j1');
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');

    fireEvent.change(screen.getByLabelText('Deadline'), { target: { value: '2020-01-01T09:00' } });
    await user.type(screen.getByLabelText('Extra takes'), '11');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('The deadline must be in the future.')).toBeInTheDocument();
    expect(screen.getByLabelText('Deadline')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Please enter 0 to 10 extra takes')).toBeInTheDocument();
    expect(posts).toBe(0);

    // in the future on this device, refused by the server (its clock said otherwise)
    fireEvent.change(screen.getByLabelText('Deadline'), { target: { value: '2031-01-01T09:00' } });
    await user.clear(screen.getByLabelText('Extra takes'));
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    await waitFor(() => expect(posts).toBe(1));
    expect(await screen.findByText('The deadline must be in the future.')).toBeInTheDocument();
    expect(screen.queryByText(/server wording/)).not.toBeInTheDocument();
    // nothing typed is lost
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Deadline')).toHaveValue('2031-01-01T09:00');
  });
  it('marks a closed job, turns its invite forms off with the reason, and offers to reopen it (issue 19)', async () => {
    signInAs({ primaryCompany: 'c1' });
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json({ ...job, closedAt: '2026-11-24 10:00:00.000Z' })),
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list([]))),
      pipelineCounts(),
    );
    renderRoute('/companies/c1/jobs/j1');

    const heading = await screen.findByRole('heading', { level: 1, name: /Senior Engineer/ });
    expect(within(heading).getByText('Closed')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('This job was closed on Nov 24, 2026, so no one new can be invited. Reopen the job to invite candidates.');
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Invite' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Invite from CSV' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reopen job' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Close job' })).toBeNull();
  });

  it('offers to close an open job, whose invite forms stay on', async () => {
    signInAs({ primaryCompany: 'c1' });
    server.use(
      http.get('*/api/collections/jobs/records/j1', () => HttpResponse.json({ ...job, closedAt: '' })),
      http.get('*/api/screenroom/jobs/:job/candidates', () => HttpResponse.json(list([]))),
      pipelineCounts(),
    );
    renderRoute('/companies/c1/jobs/j1');

    expect(await screen.findByRole('button', { name: 'Close job' })).toBeEnabled();
    expect(screen.queryByText('Closed')).toBeNull();
    expect(screen.getByRole('button', { name: 'Invite' })).toBeEnabled();
  });
});
