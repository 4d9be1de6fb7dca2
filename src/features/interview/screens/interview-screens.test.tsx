import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { renderRoute } from '@/testing/render-route';
import { server } from '@/testing/msw-server';

const interviewUrl = `${env.apiUrl}/api/screenroom/interviews/:id`;

function question(id: string, kind: 'video' | 'text', extra: Record<string, unknown> = {}) {
  return {
    id,
    title: `Title ${id}`,
    description: `Description ${id}`,
    timeout: 45,
    canPreview: true,
    kind,
    takes: kind === 'video' ? 2 : 1,
    ...extra,
  };
}

/** The server's interview route as PocketBase answers it, recording the candidate header it was sent with. */
function interviewApi({ answered = [] as string[], questions = [question('q1', 'text'), question('q2', 'text')] } = {}) {
  const headers: (string | null)[] = [];
  server.use(
    // the server records the first opening (issue 17): opened just now
    http.post(`${env.apiUrl}/api/screenroom/interviews/:id/questions/:question/open`, () => {
      const now = new Date().toISOString().replace('T', ' ');
      return HttpResponse.json({ openedAt: now, serverNow: now });
    }),
    http.get(interviewUrl, ({ params, request }) => {
      headers.push(request.headers.get('X-Candidate-Key'));
      if (params.id !== 'cand1' || request.headers.get('X-Candidate-Key') !== 'cand1') {
        return HttpResponse.json({ status: 404, message: 'This interview link is not valid.', data: {} }, { status: 404 });
      }
      return HttpResponse.json({
        candidateId: 'cand1',
        companyName: 'Globex',
        jobTitle: 'Support engineer',
        consentedAt: '2026-01-01 10:00:00.000Z',
        questions,
        answeredQuestionIds: answered,
      });
    }),
  );
  return { headers };
}

describe('interview screens', () => {
  it('greets the candidate and starts at the first question, sending only the candidate id', async () => {
    const { headers } = interviewApi();
    const view = renderRoute('/candidates/cand1');
    expect(await screen.findByRole('heading', { name: 'Interview at Globex' })).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/candidates/cand1');
    // this candidate agreed on an earlier visit: 'I agree' stays ticked and Start goes on
    expect(screen.getByLabelText('I agree')).toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Start Interview' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q1'));
    expect(headers.length).toBeGreaterThan(0);
    expect(headers.every((h) => h === 'cand1')).toBe(true);
  });

  it('resumes at the first unanswered question', async () => {
    interviewApi({ answered: ['q1'] });
    renderRoute('/candidates/cand1');
    expect(await screen.findByText(/you have answered 1 of 2/)).toBeInTheDocument();
  });

  it('resumes at the first unanswered question when started', async () => {
    interviewApi({ answered: ['q1'] });
    const view = renderRoute('/candidates/cand1');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Interview' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q2'));
  });

  it('shows the thank-you screen when every question is answered', async () => {
    interviewApi({ answered: ['q1', 'q2'] });
    const view = renderRoute('/candidates/cand1');
    expect(await screen.findByRole('heading', { name: 'Thank you' })).toBeInTheDocument();
    expect(screen.getByText("We'll get back to you soon")).toBeInTheDocument();
    expect(view.router.state.location.pathname).toBe('/candidates/cand1/finish');
  });

  it('shows a friendly page for an unknown candidate id', async () => {
    interviewApi();
    renderRoute('/candidates/nobody');
    expect(await screen.findByRole('heading', { name: 'This interview link is not valid' })).toBeInTheDocument();
  });

  it('shows the intro card: title and description only with canPreview, always the time', async () => {
    interviewApi({ questions: [question('q1', 'text', { canPreview: false, timeout: 30 }), question('q2', 'text')] });
    renderRoute('/candidates/cand1/questions/q1');
    expect(await screen.findByText("You've 30 seconds to answer")).toBeInTheDocument();
    expect(screen.queryByText('Title q1')).not.toBeInTheDocument();
    expect(screen.queryByText('Description q1')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'View question' }));
    expect(await screen.findByRole('heading', { name: 'Title q1' })).toBeInTheDocument();
    // the question's 30 s, less what a busy machine took to show the heading
    expect(screen.getByRole('timer')).toHaveTextContent(/0:(30|[12]\d)/);
  });

  it('sends an answered question on to the next open one', async () => {
    interviewApi({ answered: ['q1'] });
    const view = renderRoute('/candidates/cand1/questions/q1');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q2'));
  });

  it('validates the text answer with the exact messages and counts characters live', async () => {
    interviewApi();
    renderRoute('/candidates/cand1/questions/q1');
    await userEvent.click(await screen.findByRole('button', { name: 'View question' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    expect(await screen.findByText('Please enter your answer')).toBeInTheDocument();

    const box = screen.getByLabelText('Your answer');
    await userEvent.type(box, 'Hello');
    expect(screen.getByText('5 / 1000')).toBeInTheDocument();
    await userEvent.clear(box);
    await userEvent.click(box);
    await userEvent.paste('x'.repeat(1001));
    expect(screen.getByText('1001 / 1000')).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Submit answer' }));
    expect(await screen.findByText('Your answer must be at most 1000 characters')).toBeInTheDocument();
  });
});
