import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/msw-server';
import { renderWithProviders } from '@/testing/render-route';

import { QuestionRemoval } from './question-removal';

const question = { id: 'q1', title: 'Tell us about yourself', archived: false };
const job = (id: string, title: string, questions: string[]) => ({ id, title, questions });

function usage(answers: number, jobs: ReturnType<typeof job>[]) {
  server.use(http.get('*/api/screenroom/deletions/questions/q1', () => HttpResponse.json({ answers, jobs })));
}

describe('deleting a question (issue 16)', () => {
  it('names the jobs it leaves, then deletes it', async () => {
    usage(0, [job('j1', 'Support engineer', ['q1', 'q2']), job('j2', 'Designer', ['q1', 'q3'])]);
    const deleted: string[] = [];
    server.use(
      http.delete('*/api/collections/questions/records/:id', ({ params }) => {
        deleted.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<QuestionRemoval question={question} />);

    await user.click(screen.getByRole('button', { name: 'Delete Tell us about yourself' }));
    expect(
      await screen.findByText(
        'Deletes "Tell us about yourself" and removes it from 2 jobs: "Support engineer", "Designer". Nobody has answered it yet. This can\'t be undone.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete question' }));
    expect(await screen.findByRole('button', { name: 'Delete Tell us about yourself' })).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(deleted).toEqual(['q1']);
  });

  it('offers to archive, never to delete, a question candidates answered', async () => {
    usage(3, [job('j1', 'Support engineer', ['q1', 'q2'])]);
    const patched: unknown[] = [];
    server.use(
      http.patch('*/api/collections/questions/records/q1', async ({ request }) => {
        patched.push(await request.json());
        return HttpResponse.json({ ...question, archived: true });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<QuestionRemoval question={question} />);

    await user.click(screen.getByRole('button', { name: 'Delete Tell us about yourself' }));
    expect(await screen.findByText(/Candidates have given 3 answers to "Tell us about yourself", so it can't be deleted/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Archive this question?' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete question' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Archive question' }));
    expect(await screen.findByRole('button', { name: 'Delete Tell us about yourself' })).toBeInTheDocument();
    expect(patched).toEqual([{ archived: true }]);
  });

  it("offers nothing for a job's only question, and says why", async () => {
    usage(0, [job('j1', 'Support engineer', ['q1'])]);
    const user = userEvent.setup();
    renderWithProviders(<QuestionRemoval question={question} />);

    await user.click(screen.getByRole('button', { name: 'Delete Tell us about yourself' }));
    expect(
      await screen.findByText('"Tell us about yourself" is the only question of the job "Support engineer". Add another question to that job first.'),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Cancel']);
  });

  it("keeps the dialog open with the server's refusal in the app's words", async () => {
    usage(0, []);
    server.use(
      http.delete('*/api/collections/questions/records/q1', () =>
        HttpResponse.json(
          { status: 400, message: 'x', data: { delete: { code: 'question_has_answers', message: 'x' } } },
          { status: 400 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderWithProviders(<QuestionRemoval question={question} />);
    await user.click(screen.getByRole('button', { name: 'Delete Tell us about yourself' }));
    await user.click(await screen.findByRole('button', { name: 'Delete question' }));
    expect(await screen.findByText('Candidates have answered this question, so it can only be archived.')).toBeInTheDocument();
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('holds only its button until used, and gives the focus back to it when the dialog closes', async () => {
    usage(0, []);
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<QuestionRemoval question={question} />);
    const button = screen.getByRole('button', { name: 'Delete Tell us about yourself' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    // nothing read or prepared for the dialog while nobody asked for it (one such row per question)
    expect(queryClient.getQueryCache().getAll()).toEqual([]);

    await user.click(button);
    expect(await screen.findByText('Deletes "Tell us about yourself". No job asks it and nobody has answered it. This can\'t be undone.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect.poll(() => screen.queryByRole('alertdialog')).toBeNull();
    expect(button).toHaveFocus();

    // opened again, it reads again where the question is used
    usage(2, []);
    await user.click(button);
    expect(await screen.findByText(/Candidates have given 2 answers/)).toBeInTheDocument();
  });

  it('brings an archived question back with Unarchive', async () => {
    const patched: unknown[] = [];
    server.use(
      http.patch('*/api/collections/questions/records/q1', async ({ request }) => {
        patched.push(await request.json());
        return HttpResponse.json({ ...question, archived: false });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<QuestionRemoval question={{ ...question, archived: true }} />);
    await user.click(screen.getByRole('button', { name: 'Unarchive Tell us about yourself' }));
    await expect.poll(() => patched).toEqual([{ archived: false }]);
  });
});
