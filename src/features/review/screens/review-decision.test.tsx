import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { queryClient } from '@/lib/query-client';
import { server } from '@/testing/msw-server';

import { buildReview, candidateRecord, openReview, type reviewServer, stamp } from './review-test-server';

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

const open = openReview;

const decision = () => screen.getByRole('radiogroup', { name: 'Decision' });
const byline = () => screen.getByTestId('decision-byline');
const decisionPosts = (api: ReturnType<typeof reviewServer>) =>
  api.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/decision')).map((request) => request.body);

describe('the decision on the review', () => {
  it('shows the decision with who set it and when', async () => {
    await open({ review: buildReview({ candidate: { decision: 'advance', decisionBy: 'u2', decisionAt: stamp(10 * 60_000 + 45_000) } }) });
    expect(within(decision()).getByRole('radio', { name: 'Advance' })).toHaveAttribute('aria-checked', 'true');
    expect(within(decision()).getByRole('radio', { name: 'Hold' })).toHaveAttribute('aria-checked', 'false');
    await vi.waitFor(() => expect(byline()).toHaveTextContent('Advance, set by Maria Manager 10 minutes ago'));
    expect(within(byline()).getByText('10 minutes ago').tagName).toBe('TIME');
  });

  it('sets, changes and clears the decision through the decision route', async () => {
    const user = userEvent.setup();
    const api = await open();
    expect(byline()).toHaveTextContent('No decision yet');
    expect(screen.queryByRole('button', { name: 'Clear decision' })).not.toBeInTheDocument();

    await user.click(within(decision()).getByRole('radio', { name: 'Hold' }));
    await vi.waitFor(() => expect(byline()).toHaveTextContent('Hold, set by Ada Lovelace just now'));
    expect(within(decision()).getByRole('radio', { name: 'Hold' })).toHaveAttribute('aria-checked', 'true');
    expect(api.store.reviews.get('k1')).toMatchObject({ decision: 'hold', decisionBy: 'u1' });

    // the keyboard: arrows move between the choices, Space picks one
    await user.keyboard('{ArrowRight}');
    expect(within(decision()).getByRole('radio', { name: 'Reject' })).toHaveFocus();
    await user.keyboard(' ');
    await vi.waitFor(() => expect(byline()).toHaveTextContent('Reject, set by Ada Lovelace'));

    await user.click(screen.getByRole('button', { name: 'Clear decision' }));
    await vi.waitFor(() => expect(byline()).toHaveTextContent('No decision yet'));
    expect(within(decision()).queryByRole('radio', { checked: true })).toBeNull();
    expect(decisionPosts(api)).toEqual([{ decision: 'hold' }, { decision: 'reject' }, { decision: '' }]);
    expect(api.store.reviews.get('k1')).toMatchObject({ decision: '', decisionBy: '', decisionAt: '' });
  });

  it("shows another manager's decision live", async () => {
    const api = await open();
    await vi.waitFor(() => expect(api.realtime.subscriptions('candidates')).toMatchObject([{ topic: 'k1', active: true }]));
    const candidate = candidateRecord(buildReview({ candidate: { decision: 'reject', decisionBy: 'u2', decisionAt: stamp(), updated: stamp() } }));
    api.realtime.emit('candidates', 'update', candidate);
    await vi.waitFor(() => expect(byline()).toHaveTextContent('Reject, set by Maria Manager just now'));
    // the answers are still there: the event carries the record, not the review's expand
    expect(screen.getByRole('region', { name: '2. Why us?' })).toHaveTextContent('Because I like people.');
  });

  it('says so when the decision could not be saved, and shows the stored one again', async () => {
    const user = userEvent.setup();
    const api = await open({ review: buildReview({ candidate: { decision: 'hold', decisionBy: 'u1', decisionAt: stamp(60_000 * 90) } }) });
    server.use(http.post('*/api/screenroom/candidates/:id/decision', () => HttpResponse.json({ status: 500, message: 'boom', data: {} }, { status: 500 })));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await user.click(within(decision()).getByRole('radio', { name: 'Advance' }));
    expect(await screen.findByText('Something went wrong while processing your request.')).toBeInTheDocument();
    await vi.waitFor(() => expect(within(decision()).getByRole('radio', { name: 'Hold' })).toHaveAttribute('aria-checked', 'true'));
    expect(byline()).toHaveTextContent('Hold, set by Ada Lovelace 1 hour ago');
    expect(api.store.reviews.get('k1')).toMatchObject({ decision: 'hold' });
  });
});
