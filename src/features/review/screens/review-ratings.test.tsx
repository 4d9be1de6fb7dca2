import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { queryClient } from '@/lib/query-client';
import { server } from '@/testing/msw-server';

import { openReview, rating, stamp } from './review-test-server';

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

const open = openReview;

const CARD_NAMES: Record<string, string> = {
  a1: 'Answer to question 1: Introduce yourself',
  a2: 'Answer to question 2: Why us?',
  a4: 'Answer to question 4: A broken answer',
};
const answerCard = (id: string) => screen.getByRole('article', { name: CARD_NAMES[id] });
const stars = (id: string) => within(answerCard(id)).getByRole('radiogroup', { name: 'Your rating' });
const average = (id: string) => within(answerCard(id)).getByTestId('answer-average');
const overall = () => screen.getByTestId('overall-score');

describe('ratings on the review', () => {
  it("shows the manager's own rating, each answer's average with its raters, and the overall score", async () => {
    await open({
      ratings: [
        rating({ id: 'r1', answer: 'a1', manager: 'u1', stars: 4 }),
        rating({ id: 'r2', answer: 'a1', manager: 'u2', stars: 5 }),
        rating({ id: 'r3', answer: 'a2', manager: 'u2', stars: 2 }),
      ],
    });

    await vi.waitFor(() => expect(within(stars('a1')).getByRole('radio', { name: '4 stars' })).toBeChecked());
    expect(within(stars('a1')).getAllByRole('radio')).toHaveLength(5);
    for (const name of ['1 star', '2 stars', '3 stars', '4 stars', '5 stars']) {
      expect(within(stars('a1')).getByRole('radio', { name })).toBeInTheDocument();
    }
    expect(average('a1')).toHaveTextContent('Average 4.5 from 2 managers');
    expect(within(stars('a2')).queryByRole('radio', { checked: true })).toBeNull();
    expect(average('a2')).toHaveTextContent('Average 2 from 1 manager');
    expect(average('a4')).toHaveTextContent('No ratings yet');
    // (4.5 + 2) / 2 answers
    expect(overall()).toHaveTextContent('Overall score3.3 out of 5Average over 2 rated answers');
  });

  it('rates with a click, changes with the arrow keys, clears with a click on the same star or with Clear', async () => {
    const user = userEvent.setup();
    const api = await open();
    expect(overall()).toHaveTextContent('Not rated yet');

    await user.click(within(stars('a1')).getByRole('radio', { name: '3 stars' }));
    await vi.waitFor(() => expect(api.store.ratings).toMatchObject([{ answer: 'a1', candidate: 'k1', manager: 'u1', stars: 3 }]));
    expect(within(stars('a1')).getByRole('radio', { name: '3 stars' })).toBeChecked();
    expect(average('a1')).toHaveTextContent('Average 3 from 1 manager');
    expect(overall()).toHaveTextContent('3 out of 5');

    await user.keyboard('{ArrowRight}');
    await vi.waitFor(() => expect(api.store.ratings).toMatchObject([{ answer: 'a1', manager: 'u1', stars: 4 }]));
    expect(within(stars('a1')).getByRole('radio', { name: '4 stars' })).toHaveFocus();
    expect(within(stars('a1')).getByRole('radio', { name: '4 stars' })).toBeChecked();
    expect(api.store.ratings).toHaveLength(1);

    await user.click(within(stars('a1')).getByRole('radio', { name: '4 stars' }));
    await vi.waitFor(() => expect(api.store.ratings).toEqual([]));
    expect(within(stars('a1')).queryByRole('radio', { checked: true })).toBeNull();
    expect(average('a1')).toHaveTextContent('No ratings yet');

    await user.click(within(stars('a1')).getByRole('radio', { name: '5 stars' }));
    await vi.waitFor(() => expect(api.store.ratings).toMatchObject([{ stars: 5 }]));
    await user.click(within(answerCard('a1')).getByRole('button', { name: 'Clear' }));
    await vi.waitFor(() => expect(api.store.ratings).toEqual([]));
    expect(within(answerCard('a1')).queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
    expect(overall()).toHaveTextContent('Not rated yet');
  });

  it("shows another manager's rating, its change and its removal live", async () => {
    const api = await open({ ratings: [rating({ id: 'r1', answer: 'a1', manager: 'u1', stars: 4 })] });
    await vi.waitFor(() => expect(average('a1')).toHaveTextContent('Average 4 from 1 manager'));
    await vi.waitFor(() => expect(api.realtime.subscriptions('ratings')).toMatchObject([{ topic: '*', options: { filter: 'candidate = "k1"' }, active: true }]));

    // what the server stores, then tells the subscribers
    const maria = rating({ id: 'r9', answer: 'a1', manager: 'u2', stars: 5, created: stamp(), updated: stamp() });
    api.store.ratings.push(maria);
    api.realtime.emit('ratings', 'create', maria);
    await vi.waitFor(() => expect(average('a1')).toHaveTextContent('Average 4.5 from 2 managers'));
    // her rating is not the signed-in manager's own
    expect(within(stars('a1')).getByRole('radio', { name: '4 stars' })).toBeChecked();

    const changed = { ...maria, stars: 1, updated: stamp(-1000) };
    api.store.ratings = api.store.ratings.map((r) => (r.id === maria.id ? changed : r));
    api.realtime.emit('ratings', 'update', changed);
    await vi.waitFor(() => expect(average('a1')).toHaveTextContent('Average 2.5 from 2 managers'));
    expect(overall()).toHaveTextContent('2.5 out of 5');

    api.store.ratings = api.store.ratings.filter((r) => r.id !== maria.id);
    api.realtime.emit('ratings', 'delete', maria);
    await vi.waitFor(() => expect(average('a1')).toHaveTextContent('Average 4 from 1 manager'));
  });

  it('tells the manager when a rating could not be saved, and shows the stored one again', async () => {
    const user = userEvent.setup();
    const api = await open({ ratings: [rating({ id: 'r1', answer: 'a2', manager: 'u1', stars: 2 })] });
    await vi.waitFor(() => expect(within(stars('a2')).getByRole('radio', { name: '2 stars' })).toBeChecked());
    server.use(http.patch('*/api/collections/ratings/records/:id', () => HttpResponse.json({ status: 500, message: 'db locked', data: {} }, { status: 500 })));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    await user.click(within(stars('a2')).getByRole('radio', { name: '5 stars' }));
    expect(await screen.findByText('Something went wrong while processing your request.')).toBeInTheDocument();
    expect(screen.queryByText(/db locked/)).not.toBeInTheDocument();
    expect(logged).toHaveBeenCalled();
    await vi.waitFor(() => expect(within(stars('a2')).getByRole('radio', { name: '2 stars' })).toBeChecked());
    expect(api.store.ratings).toMatchObject([{ stars: 2 }]);
  });
});
