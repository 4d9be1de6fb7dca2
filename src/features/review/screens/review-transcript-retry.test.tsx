import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { queryClient } from '@/lib/query-client';
import { server } from '@/testing/msw-server';

import { buildReview, openReview, videoAnswer } from './review-test-server';

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

const transcript = () => screen.getByTestId('transcript');

/** The retry route as the server answers: the video answer put back to pending, or `refuse` (status and message). */
function retryRoute(refuse?: { status: number; message: string }) {
  const calls: string[] = [];
  server.use(
    http.post(pb.buildURL('/api/screenroom/video-answers/:id/transcript/retry'), ({ params }) => {
      calls.push(String(params.id));
      if (refuse) {
        return HttpResponse.json(
          { status: refuse.status, message: refuse.message, data: refuse.status === 400 ? { transcriptStatus: { code: 'validation_not_failed', message: refuse.message } } : {} },
          { status: refuse.status },
        );
      }
      return HttpResponse.json({ ...videoAnswer, transcriptStatus: 'pending', transcriptAttempts: 0, transcriptFailure: '' });
    }),
  );
  return calls;
}

describe('a failed transcript in the review', () => {
  it.each([
    ['timed_out', 'It timed out: the server or the transcription service took too long to answer.'],
    ['unreadable_recording', 'The recording could not be read.'],
    ['transcription_failed', 'The transcription service could not transcribe this recording.'],
    ['processing_failed', 'The recording could not be prepared for transcription.'],
    ['worker_stopped', 'The transcription was interrupted each time it was tried.'],
    ['', 'The transcription did not succeed.'],
  ] as const)('says why in plain words (%s) and offers to try again', async (failure, words) => {
    await openReview({ review: buildReview({ video: { transcriptStatus: 'failed', transcriptFailure: failure || undefined } }) });
    expect(transcript()).toHaveTextContent('Transcript unavailable');
    expect(transcript()).toHaveTextContent(words);
    expect(within(transcript()).getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it("asks the server again, says so, and shows the transcript as pending", async () => {
    const user = userEvent.setup();
    await openReview({ review: buildReview({ video: { transcriptStatus: 'failed', transcriptFailure: 'timed_out' } }) });
    const calls = retryRoute();
    await user.click(within(transcript()).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The transcript is being made again.')).toBeInTheDocument();
    expect(calls).toEqual(['va1']);
    expect(transcript()).toHaveTextContent('Transcript pending');
    expect(within(transcript()).queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal and stays as it was", async () => {
    const user = userEvent.setup();
    const message = 'You asked for many transcripts again in a short time. Wait a few minutes, then try again.';
    await openReview({ review: buildReview({ video: { transcriptStatus: 'failed', transcriptFailure: 'timed_out' } }) });
    const calls = retryRoute({ status: 429, message });
    await user.click(within(transcript()).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(calls).toEqual(['va1']);
    expect(transcript()).toHaveTextContent('Transcript unavailable');
    expect(within(transcript()).getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('shows why the server refused an answer that has not failed (another manager asked first)', async () => {
    const user = userEvent.setup();
    const message = 'This transcript is still being made: there is nothing to try again yet.';
    await openReview({ review: buildReview({ video: { transcriptStatus: 'failed', transcriptFailure: 'worker_stopped' } }) });
    retryRoute({ status: 400, message });
    await user.click(within(transcript()).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('is not offered for a transcript that has not failed', async () => {
    await openReview({ review: buildReview({ video: { transcriptStatus: 'pending' } }) });
    expect(transcript()).toHaveTextContent('Transcript pending');
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });
});
