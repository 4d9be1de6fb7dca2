import 'fake-indexeddb/auto';

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { installFakeMedia, setUserAgent, USER_AGENTS } from '@/testing/fake-media';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';

// The check's own lines, failures and retries: device-check/interview-device-check.test.tsx. Here, its place in the
// candidate's journey.

let getUserMedia: ReturnType<typeof installFakeMedia>['getUserMedia'];

beforeEach(() => {
  ({ getUserMedia } = installFakeMedia());
  setUserAgent(USER_AGENTS.chrome);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A job with the given questions, its connection check answering. */
function interviewApi({ questions = [{ kind: 'video' }, { kind: 'text' }] }: { questions?: { kind: string }[] } = {}) {
  server.use(
    http.get(`${env.apiUrl}/api/screenroom/interviews/:id`, ({ params }) =>
      HttpResponse.json({
        candidateId: params.id,
        companyName: 'Globex',
        jobTitle: 'Support engineer',
        consentedAt: '2026-01-01 10:00:00.000Z',
        questions: questions.map((q, i) => ({
          id: `q${i + 1}`,
          title: `Question ${i + 1}`,
          description: 'Tell us',
          timeout: 45,
          canPreview: true,
          kind: q.kind,
          takes: 2,
        })),
        answeredQuestionIds: [],
      }),
    ),
    http.post(`${env.apiUrl}/api/screenroom/interviews/:id/connection-check`, async ({ request }) => {
      await request.arrayBuffer();
      return new HttpResponse(null, { status: 204 });
    }),
  );
}

describe('the device check screen', () => {
  it('comes between Start Interview and the first video question, and Continue leads to it', async () => {
    interviewApi();
    const view = renderRoute('/candidates/cand1');
    await userEvent.click(await screen.findByRole('button', { name: 'Start Interview' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/check'));
    expect(await screen.findByRole('heading', { name: 'Check your camera and microphone' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try a practice question' })).toHaveAttribute('href', '/candidates/cand1/practice');
    await userEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q1'));
  });

  it('is skipped for a job of text questions only', async () => {
    interviewApi({ questions: [{ kind: 'text' }] });
    const view = renderRoute('/candidates/cand1/check');
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/candidates/cand1/questions/q1'));
    expect(getUserMedia).not.toHaveBeenCalled();
  });
});
