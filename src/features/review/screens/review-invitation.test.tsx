import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { formatDeadline, toDateTimeLocal } from '@/lib/deadline';
import { pb } from '@/lib/pocketbase';
import { queryClient } from '@/lib/query-client';
import { server } from '@/testing/msw-server';

import type { CandidateReview } from '../api/review-candidate';

import { buildReview, candidateRecord, openReview, stamp } from './review-test-server';

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

const FUTURE = '2999-12-01 17:00:00.000Z';
const panel = () => screen.getByTestId('invitation-panel');

/**
 * The records API's update of the candidate as PocketBase answers a manager: the fields written, the server's
 * withdrawnAt stamp; `refuse` answers a deadline with the server's 400 on the field.
 */
function candidateUpdates(review: CandidateReview, { refuse = false } = {}) {
  const patches: Record<string, unknown>[] = [];
  let current = candidateRecord(review);
  server.use(
    http.patch(pb.buildURL('/api/collections/candidates/records/k1'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      patches.push(body);
      if (refuse && 'deadline' in body) {
        return HttpResponse.json(
          { status: 400, message: 'Failed to update record.', data: { deadline: { code: 'validation_past_deadline', message: 'Server words.' } } },
          { status: 400 },
        );
      }
      current = { ...current, ...body, updated: stamp() };
      if ('withdrawn' in body) current = { ...current, withdrawnAt: body.withdrawn ? stamp() : '' };
      return HttpResponse.json(current);
    }),
  );
  return patches;
}

describe('the invitation on the review (issue 17)', () => {
  it('shows the deadline and the adjustments granted', async () => {
    await openReview({ review: buildReview({ candidate: { status: 'invited', deadline: FUTURE, extraTime: '2', extraTakes: 2 } }) });
    expect(panel()).toHaveTextContent(`Due ${formatDeadline(FUTURE)}`);
    expect(formatDeadline(FUTURE)).toMatch(/^\d{1,2} December 2999, \d\d:\d\d$/);
    expect(screen.getByTestId('adjustments-text')).toHaveTextContent('Adjustments: 2× time, 2 extra takes');
  });

  it.each([
    [{ deadline: '' }, 'No deadline'],
    [{ deadline: '2020-01-01 09:00:00.000Z' }, 'Closed'],
    [{ deadline: FUTURE, withdrawn: true }, 'Withdrawn'],
  ] as const)('says %o as %s', async (fields, text) => {
    await openReview({ review: buildReview({ candidate: { status: 'invited', ...fields } }) });
    expect(within(panel()).getByText(text, { exact: true })).toBeInTheDocument();
    expect(screen.getByTestId('adjustments-text')).toHaveTextContent('Adjustments: None');
  });

  it('extends the deadline in a small dialog, starting from the current one', async () => {
    const user = userEvent.setup();
    const review = buildReview({ candidate: { status: 'started', deadline: FUTURE } });
    const patches = candidateUpdates(review);
    await openReview({ review });
    await user.click(within(panel()).getByRole('button', { name: 'Extend deadline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend deadline' });
    const field = within(dialog).getByLabelText('New deadline');
    expect(field).toHaveValue(toDateTimeLocal(new Date(FUTURE.replace(' ', 'T'))));

    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save deadline' }));
    expect(await within(dialog).findByText('Please enter a date and time')).toBeInTheDocument();
    await user.type(field, '2020-01-01T09:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save deadline' }));
    expect(await within(dialog).findByText('The deadline must be in the future.')).toBeInTheDocument();
    expect(patches).toEqual([]);

    await user.clear(field);
    await user.type(field, '3000-01-15T09:30');
    await user.click(within(dialog).getByRole('button', { name: 'Save deadline' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const sent = new Date('3000-01-15T09:30').toISOString();
    expect(patches).toEqual([{ deadline: sent }]);
    expect(panel()).toHaveTextContent(`Due ${formatDeadline(sent)}`);
  });

  it("keeps the dialog and the date typed when the server refuses the deadline, in the app's words", async () => {
    const user = userEvent.setup();
    const review = buildReview({ candidate: { status: 'invited', deadline: FUTURE } });
    candidateUpdates(review, { refuse: true });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await openReview({ review });
    await user.click(within(panel()).getByRole('button', { name: 'Extend deadline' }));
    const dialog = await screen.findByRole('dialog', { name: 'Extend deadline' });
    await user.click(within(dialog).getByRole('button', { name: 'Save deadline' }));
    expect(await within(dialog).findByText('The deadline must be in the future.')).toBeInTheDocument();
    expect(within(dialog).queryByText('Server words.')).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText('New deadline')).toHaveAttribute('aria-invalid', 'true');
  });

  it('withdraws after a confirmation that says what it does, and restores', async () => {
    const user = userEvent.setup();
    const review = buildReview({ candidate: { status: 'invited', deadline: FUTURE } });
    const patches = candidateUpdates(review);
    await openReview({ review });

    await user.click(within(panel()).getByRole('button', { name: 'Withdraw invitation' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Withdraw the invitation?' });
    expect(confirm).toHaveTextContent('The interview link of grace@example.com closes at once');
    expect(confirm).toHaveTextContent('no more reminders are sent');
    expect(confirm).toHaveTextContent('You can restore the invitation later.');
    // cancelling changes nothing
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(patches).toEqual([]);

    await user.click(within(panel()).getByRole('button', { name: 'Withdraw invitation' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Withdraw invitation' }));
    expect(await within(panel()).findByText('Withdrawn', { exact: true })).toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: 'Extend deadline' })).not.toBeInTheDocument();

    await user.click(within(panel()).getByRole('button', { name: 'Restore invitation' }));
    await vi.waitFor(() => expect(panel()).toHaveTextContent(`Due ${formatDeadline(FUTURE)}`));
    expect(patches).toEqual([{ withdrawn: true }, { withdrawn: false }]);
  });

  it('changes the extra time and takes, with their messages on the fields', async () => {
    const user = userEvent.setup();
    const review = buildReview({ candidate: { status: 'invited', extraTime: '1.5', extraTakes: 0 } });
    const patches = candidateUpdates(review);
    await openReview({ review });
    expect(screen.getByTestId('adjustments-text')).toHaveTextContent('Adjustments: 1.5× time');

    await user.click(within(panel()).getByRole('button', { name: 'Change adjustments' }));
    expect(within(panel()).getByLabelText('Extra time')).toHaveValue('1.5');
    expect(within(panel()).getByLabelText('Extra takes')).toHaveValue(null);
    await user.selectOptions(within(panel()).getByLabelText('Extra time'), 'No time limit');
    await user.type(within(panel()).getByLabelText('Extra takes'), '11');
    await user.click(within(panel()).getByRole('button', { name: 'Save adjustments' }));
    expect(await within(panel()).findByText('Please enter 0 to 10 extra takes')).toBeInTheDocument();
    expect(within(panel()).getByLabelText('Extra takes')).toHaveAttribute('aria-invalid', 'true');

    await user.clear(within(panel()).getByLabelText('Extra takes'));
    await user.type(within(panel()).getByLabelText('Extra takes'), '3');
    await user.click(within(panel()).getByRole('button', { name: 'Save adjustments' }));
    await vi.waitFor(() => expect(screen.getByTestId('adjustments-text')).toHaveTextContent('Adjustments: No time limit, 3 extra takes'));
    expect(patches).toEqual([{ extraTime: 'unlimited', extraTakes: 3 }]);
  });

  it('offers no deadline or withdrawal actions once the interview is completed', async () => {
    await openReview({ review: buildReview({ candidate: { deadline: FUTURE } }) });
    expect(within(panel()).queryByRole('button', { name: 'Extend deadline' })).not.toBeInTheDocument();
    expect(within(panel()).queryByRole('button', { name: 'Withdraw invitation' })).not.toBeInTheDocument();
    expect(within(panel()).getByRole('button', { name: 'Change adjustments' })).toBeInTheDocument();
  });
});
