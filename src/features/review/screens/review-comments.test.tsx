import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { queryClient } from '@/lib/query-client';
import { server } from '@/testing/msw-server';

import { comment, openReview, stamp } from './review-test-server';

afterEach(() => {
  vi.restoreAllMocks();
  queryClient.clear();
});

const open = openReview;

const thread = () => screen.getByRole('region', { name: 'Comments' });
const commentTexts = () =>
  within(thread())
    .queryAllByRole('article')
    .map((article) => article.getAttribute('aria-label'));

describe('comments on the review', () => {
  it('shows the thread oldest first with author, avatar, time and text; only the own comments can be edited or deleted', async () => {
    await open({
      comments: [
        // relative times are read on a 30-second clock: these stay inside their minute and hour either way
        comment({ id: 'm2', author: 'u1', text: 'Agreed, strong on support.', created: stamp(165_000), updated: stamp(165_000) }),
        comment({ id: 'm1', author: 'u2', text: 'Great answer to the first question.', created: stamp(190 * 60_000), updated: stamp(190 * 60_000) }),
      ],
    });

    await vi.waitFor(() => expect(commentTexts()).toEqual(['Comment by Maria Manager', 'Comment by Ada Lovelace']));
    const marias = within(thread()).getByRole('article', { name: 'Comment by Maria Manager' });
    expect(within(marias).getByText('Great answer to the first question.')).toBeInTheDocument();
    expect(within(marias).getByText('3 hours ago')).toHaveAttribute('dateTime');
    expect(await within(marias).findByText('MM')).toBeInTheDocument(); // the avatar's initials (no picture stored)
    expect(within(marias).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
    expect(within(marias).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();

    const own = within(thread()).getByRole('article', { name: 'Comment by Ada Lovelace' });
    expect(within(own).getByText('Ada Lovelace (you)')).toBeInTheDocument();
    expect(within(own).getByText('2 minutes ago')).toBeInTheDocument();
    expect(within(own).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(own).getByRole('button', { name: 'Delete' })).toBeInTheDocument();
  });

  it('adds a comment at the bottom; whitespace alone and more than 2,000 characters are refused on the field', async () => {
    const user = userEvent.setup();
    const api = await open({ comments: [comment({ id: 'm1', author: 'u2', text: 'First!' })] });
    await within(thread()).findByText('First!');
    const field = within(thread()).getByLabelText('Add a comment');

    await user.type(field, '   ');
    await user.click(within(thread()).getByRole('button', { name: 'Add comment' }));
    expect(await within(thread()).findByRole('alert')).toHaveTextContent('Please enter a comment');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription('Please enter a comment');

    await user.clear(field);
    await user.click(field);
    await user.paste('x'.repeat(1799));
    expect(within(thread()).queryByText(/characters$/)).not.toBeInTheDocument();
    await user.type(field, 'y');
    expect(within(thread()).getByText('1,800 / 2,000 characters')).toBeInTheDocument();
    await user.paste('z'.repeat(201));
    expect(within(thread()).getByText('2,001 / 2,000 characters')).toBeInTheDocument();
    await user.click(within(thread()).getByRole('button', { name: 'Add comment' }));
    expect(await within(thread()).findByRole('alert')).toHaveTextContent('Your comment must be at most 2,000 characters');
    expect(api.requests.filter((r) => r.method === 'POST')).toEqual([]);

    await user.clear(field);
    await user.type(field, '  Strong candidate, let us advance.  ');
    await user.click(within(thread()).getByRole('button', { name: 'Add comment' }));
    await vi.waitFor(() => expect(commentTexts()).toEqual(['Comment by Maria Manager', 'Comment by Ada Lovelace']));
    expect(api.store.comments.at(-1)).toMatchObject({ candidate: 'k1', author: 'u1', text: 'Strong candidate, let us advance.' });
    expect(within(thread()).getByRole('article', { name: 'Comment by Ada Lovelace' })).toHaveTextContent('just now');
    expect(field).toHaveValue('');
    expect(within(thread()).queryByRole('alert')).not.toBeInTheDocument();
  });

  it("puts the server's refusal of the text under the field in the form's own words", async () => {
    const user = userEvent.setup();
    await open();
    server.use(
      http.post('*/api/collections/comments/records', () =>
        HttpResponse.json(
          { status: 400, message: 'Failed to create record.', data: { text: { code: 'validation_whitespace', message: 'Cannot be blank (server words).' } } },
          { status: 400 },
        ),
      ),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const field = await within(thread()).findByLabelText('Add a comment');
    await user.type(field, 'a\u200b');
    await user.click(within(thread()).getByRole('button', { name: 'Add comment' }));
    expect(await within(thread()).findByRole('alert')).toHaveTextContent('Please enter a comment');
    expect(screen.queryByText(/server words/)).not.toBeInTheDocument();
    expect(field).toHaveValue('a\u200b');
  });

  it('edits and deletes an own comment', async () => {
    const user = userEvent.setup();
    const api = await open({ comments: [comment({ id: 'm1', author: 'u1', text: 'Good energy.' })] });
    const own = await within(thread()).findByRole('article', { name: 'Comment by Ada Lovelace' });

    await user.click(within(own).getByRole('button', { name: 'Edit' }));
    const field = within(own).getByLabelText('Edit comment');
    expect(field).toHaveFocus();
    expect(field).toHaveValue('Good energy.');
    await user.clear(field);
    await user.type(field, 'Good energy, clear answers.');
    await user.click(within(own).getByRole('button', { name: 'Save' }));
    await within(own).findByText('Good energy, clear answers.');
    expect(api.store.comments).toMatchObject([{ id: 'm1', text: 'Good energy, clear answers.' }]);
    expect(within(own).getByText(/edited/)).toBeInTheDocument();

    await user.click(within(own).getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete this comment?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete comment' }));
    await vi.waitFor(() => expect(api.store.comments).toEqual([]));
    expect(await within(thread()).findByText('No comments yet')).toBeInTheDocument();
  });

  it("shows another manager's new, changed and deleted comments live", async () => {
    const api = await open({ comments: [comment({ id: 'm1', author: 'u1', text: 'Mine first.' })] });
    await within(thread()).findByText('Mine first.');
    await vi.waitFor(() =>
      expect(api.realtime.subscriptions('comments')).toMatchObject([{ topic: '*', options: { filter: 'candidate = "k1"', expand: 'author' }, active: true }]),
    );

    const hers = comment({ id: 'm2', author: 'u2', text: 'I would hire her.', created: stamp(), updated: stamp() });
    api.store.comments.push(hers);
    api.realtime.emit('comments', 'create', hers);
    await vi.waitFor(() => expect(commentTexts()).toEqual(['Comment by Ada Lovelace', 'Comment by Maria Manager']));
    const marias = within(thread()).getByRole('article', { name: 'Comment by Maria Manager' });
    expect(within(marias).getByText('I would hire her.')).toBeInTheDocument();

    const changed = { ...hers, text: 'I would hire her for the senior role.', updated: stamp(-1000) };
    api.store.comments[1] = changed;
    api.realtime.emit('comments', 'update', changed);
    expect(await within(marias).findByText('I would hire her for the senior role.')).toBeInTheDocument();

    api.store.comments.pop();
    api.realtime.emit('comments', 'delete', changed);
    await vi.waitFor(() => expect(commentTexts()).toEqual(['Comment by Ada Lovelace']));
  });
});
