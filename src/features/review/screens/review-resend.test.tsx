import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { queryClient } from '@/lib/query-client';
import { server } from '@/testing/msw-server';

import { clearResendPauses } from '../components/resend-invitation-button';

import { buildReview, openReview } from './review-test-server';

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
  clearResendPauses();
});

const FUTURE = '2999-12-01 17:00:00.000Z';
const panel = () => screen.getByTestId('invitation-panel');

/** The resend route as the server answers: 200 {sentAt}, or `refuse` (status and message). */
function resendRoute(refuse?: { status: number; message: string; code: string }) {
  const calls: string[] = [];
  server.use(
    http.post(pb.buildURL('/api/screenroom/candidates/:id/resend-invite'), ({ params }) => {
      calls.push(String(params.id));
      if (refuse) {
        return HttpResponse.json(
          { status: refuse.status, message: refuse.message, data: { candidate: { code: refuse.code, message: refuse.message } } },
          { status: refuse.status },
        );
      }
      return HttpResponse.json({ sentAt: '2026-11-24 14:00:00.000Z' });
    }),
  );
  return calls;
}

describe("resending a candidate's invitation (issue 16)", () => {
  it('mails the link again and disables the button for a while after a send', async () => {
    const user = userEvent.setup();
    const review = buildReview({ candidate: { status: 'invited', deadline: FUTURE } });
    await openReview({ review });
    const calls = resendRoute();
    const button = within(panel()).getByRole('button', { name: 'Resend invitation' });
    expect(button).toBeEnabled();

    await user.click(button);
    expect(await screen.findByText(`Invitation sent again to ${review.email}`)).toBeInTheDocument();
    expect(calls).toEqual([review.id]);
    expect(within(panel()).getByRole('button', { name: 'Resend invitation' })).toBeDisabled();
    expect(within(panel()).getByRole('status')).toHaveTextContent('Sent. You can send it again in a minute.');
  });

  it("says so when the address's e-mail budget is spent, and the button stays usable", async () => {
    const user = userEvent.setup();
    const message = 'Too many e-mails were sent to this address. Please try again later.';
    await openReview({ review: buildReview({ candidate: { status: 'started', deadline: '' } }) });
    const calls = resendRoute({ status: 429, message, code: 'validation_too_many_mails' });
    await user.click(within(panel()).getByRole('button', { name: 'Resend invitation' }));
    expect(await screen.findByText('Too many e-mails were sent to this address. Please try again later')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(within(panel()).getByRole('button', { name: 'Resend invitation' })).toBeEnabled();
  });

  it.each([
    ['completed', { status: 'completed', deadline: FUTURE }],
    ['withdrawn', { status: 'invited', deadline: FUTURE, withdrawn: true }],
    ['past its deadline', { status: 'invited', deadline: '2020-01-01 09:00:00.000Z' }],
  ] as const)('is not offered for an invitation %s', async (_, candidate) => {
    await openReview({ review: buildReview({ candidate }) });
    expect(within(panel()).queryByRole('button', { name: 'Resend invitation' })).not.toBeInTheDocument();
  });
});
