import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/msw-server';
import { renderWithProviders } from '@/testing/render-route';

import { JobRemoval } from './job-removal';

const job = { id: 'j1', title: 'Support engineer', archived: false };
function usage(candidates: number, answers: number, videos: number) {
  server.use(http.get('*/api/screenroom/deletions/jobs/j1', () => HttpResponse.json({ candidates, answers, videos })));
}

function captureDeletes() {
  const deleted: string[] = [];
  server.use(
    http.delete('*/api/collections/jobs/records/j1', ({ request }) => {
      deleted.push(new URL(request.url).search);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return deleted;
}

describe('deleting a job (issue 16)', () => {
  it('deletes a job nobody answered, saying how many invitations go', async () => {
    usage(2, 0, 0);
    const deleted = captureDeletes();
    const user = userEvent.setup();
    renderWithProviders(<JobRemoval job={job} />);

    await user.click(screen.getByRole('button', { name: 'Delete Support engineer' }));
    expect(
      await screen.findByText(
        'Deletes "Support engineer" and its 2 invited candidates, who have not answered yet. Their interview links stop working. This can\'t be undone.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete job' }));
    await expect.poll(() => deleted).toEqual(['']);
  });

  it('deletes a job with answers only once the manager ticks that the answers go too', async () => {
    usage(2, 5, 3);
    const deleted = captureDeletes();
    const user = userEvent.setup();
    renderWithProviders(<JobRemoval job={job} />);

    await user.click(screen.getByRole('button', { name: 'Delete Support engineer' }));
    expect(await screen.findByText(/"Support engineer" has 2 candidates and 5 answers, 3 videos among them\./)).toBeInTheDocument();
    const remove = screen.getByRole('button', { name: 'Delete job and answers' });
    expect(remove).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Also delete 5 answers of 2 candidates and their videos' }));
    expect(remove).toBeEnabled();
    await user.click(remove);
    await expect.poll(() => deleted).toEqual(['?deleteAnswers=true']);
  });

  it('archives a job with answers instead', async () => {
    usage(1, 1, 0);
    const deleted = captureDeletes();
    const patched: unknown[] = [];
    server.use(
      http.patch('*/api/collections/jobs/records/j1', async ({ request }) => {
        patched.push(await request.json());
        return HttpResponse.json({ ...job, archived: true });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<JobRemoval job={job} />);
    await user.click(screen.getByRole('button', { name: 'Delete Support engineer' }));
    await user.click(await screen.findByRole('button', { name: 'Archive job' }));
    await expect.poll(() => patched).toEqual([{ archived: true }]);
    expect(deleted).toEqual([]);
  });

  it('holds only its button until used, and gives the focus back to it when the dialog closes', async () => {
    usage(0, 0, 0);
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(<JobRemoval job={job} />);
    const button = screen.getByRole('button', { name: 'Delete Support engineer' });
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    // nothing read or prepared for the dialog while nobody asked for it (issue 20: one such row per job)
    expect(queryClient.getQueryCache().getAll()).toEqual([]);

    await user.click(button);
    expect(await screen.findByText('Deletes "Support engineer". Nobody has been invited yet. This can\'t be undone.')).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await expect.poll(() => screen.queryByRole('alertdialog')).toBeNull();
    expect(button).toHaveFocus();
    expect(button).toHaveAttribute('aria-expanded', 'false');

    // opened again, it reads again what the job holds
    usage(3, 0, 0);
    await user.click(button);
    expect(await screen.findByText(/and its 3 invited candidates/)).toBeInTheDocument();
  });

  it('brings an archived job back', async () => {
    const patched: unknown[] = [];
    server.use(
      http.patch('*/api/collections/jobs/records/j1', async ({ request }) => {
        patched.push(await request.json());
        return HttpResponse.json({ ...job, archived: false });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<JobRemoval job={{ ...job, archived: true }} />);
    expect(screen.queryByRole('button', { name: 'Delete Support engineer' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Unarchive Support engineer' }));
    await expect.poll(() => patched).toEqual([{ archived: false }]);
  });
});
