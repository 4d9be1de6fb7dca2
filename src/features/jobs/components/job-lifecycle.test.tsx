import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/msw-server';
import { renderWithProviders } from '@/testing/render-route';

import { JobClosedBadge, JobCloseButton, JobClosedNotice } from './job-lifecycle';

function capturePosts() {
  const posted: string[] = [];
  server.use(
    http.post('*/api/screenroom/jobs/j1/:action', ({ params }) => {
      posted.push(String(params.action));
      return HttpResponse.json({ closedAt: params.action === 'close' ? '2026-11-24 10:00:00.000Z' : '' });
    }),
  );
  return posted;
}

describe('closing and reopening a job (issue 19)', () => {
  it('says what closing does before it closes the job', async () => {
    const posted = capturePosts();
    const user = userEvent.setup();
    renderWithProviders(<JobCloseButton jobId="j1" title="Support engineer" closedAt="" />);

    await user.click(screen.getByRole('button', { name: 'Close job' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Close Support engineer?' });
    expect(dialog).toHaveTextContent('can no longer answer, and no one new can be invited. Nothing is deleted');
    expect(posted).toEqual([]);
    await user.click(screen.getAllByRole('button', { name: 'Close job' }).at(-1)!);
    await expect.poll(() => posted).toEqual(['close']);
    await expect.poll(() => screen.queryByRole('alertdialog')).toBeNull();
  });

  it('cancelling the confirmation closes nothing', async () => {
    const posted = capturePosts();
    const user = userEvent.setup();
    renderWithProviders(<JobCloseButton jobId="j1" title="Support engineer" closedAt="" />);
    await user.click(screen.getByRole('button', { name: 'Close job' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(posted).toEqual([]);
  });

  it('reopens a closed job at once', async () => {
    const posted = capturePosts();
    const user = userEvent.setup();
    renderWithProviders(<JobCloseButton jobId="j1" title="Support engineer" closedAt="2026-11-24 10:00:00.000Z" />);
    expect(screen.queryByRole('button', { name: 'Close job' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reopen job' }));
    await expect.poll(() => posted).toEqual(['reopen']);
  });

  it('shows a Closed badge and the notice only for a closed job', () => {
    const { rerender } = render(<JobClosedBadge closedAt="" />);
    expect(screen.queryByText('Closed')).toBeNull();
    rerender(<JobClosedBadge closedAt="2026-11-24 10:00:00.000Z" />);
    expect(screen.getByText('Closed')).toBeInTheDocument();
    render(<JobClosedNotice closedAt="2026-11-24 10:00:00.000Z" />);
    expect(screen.getByRole('status')).toHaveTextContent('This job was closed on Nov 24, 2026, so no one new can be invited. Reopen the job to invite candidates.');
  });
});
