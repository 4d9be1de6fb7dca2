import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { server } from '@/testing/msw-server';
import { renderWithProviders } from '@/testing/render-route';

import type { ReviewAnswer } from '../api/review-candidate';

import { DeleteCandidateButton } from './delete-candidate-dialog';

const answer = (id: string, kind: 'video' | 'text') =>
  ({
    id,
    expand: kind === 'video' ? { video_answers_via_answer: { id: `v-${id}` } } : { text_answers_via_answer: { id: `t-${id}` } },
  }) as unknown as ReviewAnswer;

describe('deleting a candidate (issue 16)', () => {
  it('says what goes, deletes the candidate with their answers, then leaves the review', async () => {
    const deleted: string[] = [];
    server.use(
      http.delete('*/api/collections/candidates/records/k1', ({ request }) => {
        deleted.push(new URL(request.url).search);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const onDeleted = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <DeleteCandidateButton
        candidateId="k1"
        jobId="j1"
        email="ana@example.com"
        answers={[answer('a1', 'video'), answer('a2', 'video'), answer('a3', 'video')]}
        onDeleted={onDeleted}
      />,
    );

    await user.click(screen.getByRole('button', { name: 'Delete candidate' }));
    expect(
      await screen.findByText(
        "Deletes ana@example.com's 3 answers and their videos, with the ratings, comments and share links about them. Their interview link stops working. This can't be undone.",
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete candidate and answers' }));
    await expect.poll(() => onDeleted.mock.calls.length).toBe(1);
    expect(deleted).toEqual(['?deleteAnswers=true']);
  });

  it('deletes an invitation nobody answered without the answers confirmation', async () => {
    const deleted: string[] = [];
    server.use(
      http.delete('*/api/collections/candidates/records/k1', ({ request }) => {
        deleted.push(new URL(request.url).search);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<DeleteCandidateButton candidateId="k1" jobId="j1" email="ana@example.com" answers={[]} onDeleted={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Delete candidate' }));
    expect(await screen.findByText(/Deletes the invitation of ana@example.com, who has not answered yet\./)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete candidate' }));
    await expect.poll(() => deleted).toEqual(['']);
  });

  it('mixes videos and texts in plain words, and keeps the dialog open when the server refuses', async () => {
    server.use(
      http.delete('*/api/collections/candidates/records/k1', () =>
        HttpResponse.json({ status: 400, message: 'x', data: { delete: { code: 'answers_not_confirmed', message: 'x' } } }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <DeleteCandidateButton candidateId="k1" jobId="j1" email="ana@example.com" answers={[answer('a1', 'video'), answer('a2', 'text')]} onDeleted={() => {}} />,
    );
    await user.click(screen.getByRole('button', { name: 'Delete candidate' }));
    expect(await screen.findByText(/Deletes ana@example.com's 2 answers \(1 video among them\)/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete candidate and answers' }));
    expect(await screen.findByText('This has answers now. Close the dialog and open it again to see what deleting takes.')).toBeInTheDocument();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });
});
