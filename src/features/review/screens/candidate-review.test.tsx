import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { queryClient } from '@/lib/query-client';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import { REVIEW_PATH, reviewServer, videoAnswer } from './review-test-server';

let api: ReturnType<typeof reviewServer>;

beforeEach(() => {
  api = reviewServer();
});

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
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
      'Comments',
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
    await vi.waitFor(() => expect(api.realtime.subscriptions('video_answers')).toHaveLength(1));

    api.realtime.emit('video_answers', 'update', {
      ...videoAnswer,
      file: 'answer_seekable.webm',
      durationSeconds: 7.1,
      transcriptStatus: 'done',
      transcript: 'he was not an ill disposed young man',
    });

    expect(await within(section).findByText('he was not an ill disposed young man')).toBeInTheDocument();
    expect(within(section).queryByText('Transcript pending')).not.toBeInTheDocument();
    expect(within(section).getByText('Duration 0:07')).toBeInTheDocument();
    // the player takes the new file in its own update, which a loaded machine may not have run yet
    await vi.waitFor(() =>
      expect(within(section).getByLabelText<HTMLVideoElement>('Answer video').src).toContain('/answer_seekable.webm?token='),
    );
    expect(api.realtime.subscriptions('video_answers')[0]).toMatchObject({ topic: '*', options: { filter: 'answer.candidate = "k1"' } });
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
      expect(api.store.tokens).toBe(1);
      await act(() => vi.advanceTimersByTimeAsync(60 * 1000));
      fireEvent.error(player);
      await vi.waitFor(() => expect(player.src).toContain('token=token-2'));
    } finally {
      vi.useRealTimers();
    }
  });

  it("says what happened when the candidate cannot be loaded, not the server's words", async () => {
    signInAs({ primaryCompany: 'c1' });
    renderRoute('/companies/c1/jobs/j1/candidates/nope');
    expect(
      await screen.findByText(
        "This candidate could not be found: the invitation may have been deleted, or it belongs to a company you don't manage.",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/requested resource/)).not.toBeInTheDocument();
  });
});
