import { act, screen } from '@testing-library/react';
import { useSyncExternalStore } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { renderInEnglish } from '../i18n/testing';
import type { UploadState } from '../upload/upload-queue';

import { InterviewUploadStatus } from './interview-upload-status';

// The upload queue, as the box sees it: a list of states that changes (the real queue is the upload's own tests').
const queue = vi.hoisted(() => {
  let states: readonly UploadState[] = [];
  const listeners = new Set<() => void>();
  return {
    set: (next: readonly UploadState[]) => {
      states = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get: () => states,
  };
});

vi.mock('../api/answer-uploads', () => ({
  answerUploads: { retryNow: vi.fn() },
  useAnswerUploads: (candidateId: string) =>
    useSyncExternalStore(queue.subscribe, queue.get).filter((state) => state.candidateId === candidateId),
}));

const upload = (id: string, status: UploadState['status'], progress = status === 'done' ? 1 : 0.5): UploadState => ({
  id,
  candidateId: 'cand1',
  questionId: `question-of-${id}`,
  kind: 'video',
  status,
  progress,
  attempts: 0,
});

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: '/candidates/:candidateId/*', element: <InterviewUploadStatus candidateId="cand1" /> }], {
    initialEntries: [path],
  });
  renderInEnglish(<RouterProvider router={router} />);
  return router;
}

const box = () => screen.queryByRole('status', { name: 'Answer uploads' });

describe('the answer uploads box', () => {
  beforeEach(() => queue.set([]));

  it('stays on the screen once its upload arrived, saying so, and goes when the candidate moves on', async () => {
    queue.set([upload('a1', 'uploading')]);
    const router = renderAt('/candidates/cand1/questions/q2');
    expect(box()).toHaveTextContent('Uploading your answer… 50%');
    expect(box()).toHaveTextContent('Please keep this page open');

    act(() => queue.set([upload('a1', 'done')]));
    // still there, so nothing below it moves under the candidate's pointer
    expect(box()).toHaveTextContent('Answer uploaded');
    expect(box()).toHaveTextContent('Your answers have reached the hiring team.');
    expect(box()).not.toHaveTextContent('Please keep this page open');

    await act(() => router.navigate('/candidates/cand1/questions/q3'));
    expect(box()).toBeNull();
  });

  it('shows an upload that starts on the screen, and none that had arrived before the screen opened', async () => {
    queue.set([upload('a1', 'done')]);
    const router = renderAt('/candidates/cand1/questions/q2');
    expect(box()).toBeNull();

    act(() => queue.set([upload('a1', 'done'), upload('a2', 'uploading')]));
    expect(box()).toHaveTextContent('Uploading your answer… 50%');
    expect(box()).not.toHaveTextContent('Answer uploaded');

    await act(() => router.navigate('/candidates/cand1/finish'));
    // the new screen opened with a2 still on its way: shown there too
    expect(box()).toHaveTextContent('Uploading your answer… 50%');
    act(() => queue.set([upload('a1', 'done'), upload('a2', 'done')]));
    expect(box()).toHaveTextContent('Answer uploaded');
  });
});
