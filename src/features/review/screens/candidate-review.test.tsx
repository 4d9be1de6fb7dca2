import { act, fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { RecordService, RecordSubscription } from 'pocketbase';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';

import { pb } from '@/lib/pocketbase';
import type { VideoAnswersResponse } from '@/lib/pocketbase-types';
import { queryClient } from '@/lib/query-client';
import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const REVIEW_PATH = '/companies/c1/jobs/j1/candidates/k1';
const at = '2026-03-04 10:20:30.000Z';
const rec = (collectionName: string, fields: Record<string, unknown>) => ({
  collectionId: `${collectionName}_id`,
  collectionName,
  created: at,
  updated: at,
  ...fields,
});

const videoAnswer = rec('video_answers', {
  id: 'va1',
  answer: 'a1',
  file: 'answer_abc.webm',
  transcript: '',
  transcriptStatus: 'pending',
  durationSeconds: 0,
  transcriptAttempts: 0,
  mimeType: 'video/webm',
}) as unknown as VideoAnswersResponse;

function review() {
  return rec('candidates', {
    id: 'k1',
    email: 'grace@example.com',
    job: 'j1',
    expand: {
      job: rec('jobs', {
        id: 'j1',
        title: 'Support engineer',
        questions: ['q1', 'q2', 'q3', 'q4', 'q5'],
        expand: {
          questions: [
            rec('questions', { id: 'q1', title: 'Introduce yourself', expand: { video_questions_via_question: rec('video_questions', { id: 'vq1', question: 'q1', takes: 2 }) } }),
            rec('questions', { id: 'q2', title: 'Why us?', expand: { text_questions_via_question: [rec('text_questions', { id: 'tq2', question: 'q2' })] } }),
            rec('questions', { id: 'q3', title: 'A skipped question', expand: { text_questions_via_question: rec('text_questions', { id: 'tq3', question: 'q3' }) } }),
            rec('questions', { id: 'q4', title: 'A broken answer', expand: { text_questions_via_question: rec('text_questions', { id: 'tq4', question: 'q4' }) } }),
            rec('questions', { id: 'q5', title: 'A kindless question', expand: {} }),
          ],
        },
      }),
      answers_via_candidate: [
        rec('answers', { id: 'a2', question: 'q2', candidate: 'k1', expand: { text_answers_via_answer: rec('text_answers', { id: 'ta2', answer: 'a2', content: 'Because I like people.' }) } }),
        rec('answers', { id: 'a1', question: 'q1', candidate: 'k1', expand: { video_answers_via_answer: videoAnswer } }),
        rec('answers', { id: 'a4', question: 'q4', candidate: 'k1', expand: {} }),
      ],
    },
  });
}

let emit: ((event: RecordSubscription<VideoAnswersResponse>) => void) | undefined;
let tokens = 0;
let subscribe: MockInstance<RecordService<VideoAnswersResponse>['subscribe']>;

beforeEach(() => {
  tokens = 0;
  // The shell around the screen: the switcher lists the user's company, c1.
  managerShellApi();
  server.use(
    http.get(pb.buildURL('/api/screenroom/reviews/:id'), ({ params }) => {
      if (params.id !== 'k1') return HttpResponse.json({ status: 404, message: "The requested resource wasn't found.", data: {} }, { status: 404 });
      return HttpResponse.json(review());
    }),
    http.post(pb.buildURL('/api/files/token'), () => {
      tokens += 1;
      return HttpResponse.json({ token: `token-${tokens}` });
    }),
  );
  subscribe = vi.spyOn(pb.collection('video_answers'), 'subscribe').mockImplementation((_topic, callback) => {
    emit = callback;
    return Promise.resolve(() => Promise.resolve());
  });
  vi.spyOn(pb.collection('answers'), 'subscribe').mockResolvedValue(() => Promise.resolve());
});

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
  emit = undefined;
});

describe('candidate review', () => {
  it("shows the candidate's e-mail and every job question in order with its answers", async () => {
    signInAs({ primaryCompany: 'c1' });
    renderRoute(REVIEW_PATH);

    expect(await screen.findByRole('heading', { level: 1, name: 'grace@example.com' })).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      '1. Introduce yourself',
      '2. Why us?',
      '3. A skipped question',
      '4. A broken answer',
      '5. A kindless question',
    ]);

    const video = screen.getByRole('region', { name: '1. Introduce yourself' });
    expect(within(video).getByText('a1')).toBeInTheDocument();
    expect(within(video).getByText('Mar 4, 2026, 10:20 AM', { exact: false })).toBeInTheDocument();
    expect(within(video).getByText('Transcript pending')).toBeInTheDocument();
    const player = within(video).getByLabelText<HTMLVideoElement>('Answer video');
    await vi.waitFor(() => expect(player.src).toBe(pb.buildURL('/api/files/video_answers_id/va1/answer_abc.webm') + '?token=token-1'));

    const text = screen.getByRole('region', { name: '2. Why us?' });
    expect(within(text).getByText('a2')).toBeInTheDocument();
    expect(within(text).getByText('Because I like people.')).toBeInTheDocument();

    expect(within(screen.getByRole('region', { name: '3. A skipped question' })).getByText('No answer')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: '4. A broken answer' })).getByRole('alert')).toHaveTextContent('Invalid answer type');
    const kindless = screen.getByRole('region', { name: '5. A kindless question' });
    expect(within(kindless).getByRole('alert')).toHaveTextContent('Invalid question type');
    expect(within(kindless).getByText('No answer')).toBeInTheDocument();
  });

  it('shows the transcript and the seekable file as soon as the worker stores them, without reloading', async () => {
    signInAs({ primaryCompany: 'c1' });
    renderRoute(REVIEW_PATH);
    const section = await screen.findByRole('region', { name: '1. Introduce yourself' });
    expect(within(section).getByText('Transcript pending')).toBeInTheDocument();
    await vi.waitFor(() => expect(emit).toBeDefined());

    act(() =>
      emit!({
        action: 'update',
        record: { ...videoAnswer, file: 'answer_seekable.webm', durationSeconds: 7.1, transcriptStatus: 'done', transcript: 'he was not an ill disposed young man' },
      }),
    );

    expect(await within(section).findByText('he was not an ill disposed young man')).toBeInTheDocument();
    expect(within(section).queryByText('Transcript pending')).not.toBeInTheDocument();
    expect(within(section).getByText('Duration 0:07')).toBeInTheDocument();
    expect(within(section).getByLabelText<HTMLVideoElement>('Answer video').src).toContain('/answer_seekable.webm?token=');
    expect(subscribe).toHaveBeenCalledWith('*', expect.any(Function), {
      filter: 'answer.candidate = "k1"',
    });
  });

  it('refreshes the file token every 2 minutes, before it expires', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      signInAs({ primaryCompany: 'c1' });
      renderRoute(REVIEW_PATH);
      const player = await screen.findByLabelText<HTMLVideoElement>('Answer video');
      await vi.waitFor(() => expect(player.src).toContain('token=token-1'));
      await act(() => vi.advanceTimersByTimeAsync(2 * 60 * 1000));
      await vi.waitFor(() => expect(player.src).toContain('token=token-2'));
    } finally {
      vi.useRealTimers();
    }
  });

  it('gets a fresh token when the player fails with a token older than 30 s, and only then', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      signInAs({ primaryCompany: 'c1' });
      renderRoute(REVIEW_PATH);
      const player = await screen.findByLabelText<HTMLVideoElement>('Answer video');
      await vi.waitFor(() => expect(player.src).toContain('token=token-1'));
      fireEvent.error(player);
      await act(() => vi.advanceTimersByTimeAsync(1000));
      expect(tokens).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(60 * 1000));
      fireEvent.error(player);
      await vi.waitFor(() => expect(player.src).toContain('token=token-2'));
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows the server's message when the candidate cannot be loaded", async () => {
    signInAs({ primaryCompany: 'c1' });
    renderRoute('/companies/c1/jobs/j1/candidates/nope');
    expect(await screen.findByText("The requested resource wasn't found")).toBeInTheDocument();
  });
});
