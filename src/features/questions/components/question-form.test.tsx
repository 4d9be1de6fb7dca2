import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { Theme } from '@radix-ui/themes';

import type { QuestionFormInput, QuestionFormValues } from '../schemas';

import { QuestionForm } from './question-form';

function renderForm(defaultValues?: QuestionFormInput) {
  const onSubmit = vi.fn<(values: QuestionFormValues) => Promise<void>>().mockResolvedValue(undefined);
  render(
    <Theme>
      <QuestionForm defaultValues={defaultValues} submitLabel="Create Question" onSubmit={onSubmit} cancel={null} />
    </Theme>,
  );
  return { onSubmit, user: userEvent.setup() };
}

function set(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillValid() {
  set('Title', 'Tell us about yourself');
  set('Description', 'A minute is enough.');
}

async function submit(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Create Question' }));
}

describe('QuestionForm', () => {
  it('starts a new question at 5 seconds, video, 3 takes (spec §9)', () => {
    renderForm();
    expect(screen.getByLabelText('Timeout (seconds)')).toHaveValue(5);
    expect(screen.getByRole('radio', { name: 'Video' })).toBeChecked();
    expect(screen.getByLabelText('Takes')).toHaveValue(3);
    expect(screen.getByLabelText('Preparation time (seconds)')).toHaveValue(30);
  });

  it('asks for a title and a description', async () => {
    const { user, onSubmit } = renderForm();
    await submit(user);
    expect(await screen.findByText('Please enter a question title')).toBeInTheDocument();
    expect(screen.getByText('Please enter a question description')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    ['Title', 'ab', 'Please enter a question title with at least 3 characters'],
    ['Title', 'a'.repeat(101).slice(0, 101), 'Please enter a question title with at most 100 characters'],
    ['Description', 'ab', 'Please enter a question description with at least 3 characters'],
    ['Description', 'a'.repeat(1001), 'Please enter a question description with at most 1000 characters'],
    ['Timeout (seconds)', '4', 'Please enter a question timeout of at least 5 seconds'],
    ['Timeout (seconds)', '', 'Please enter a question timeout of at least 5 seconds'],
    ['Timeout (seconds)', '601', 'Please enter a question timeout of at most 600 seconds'],
    ['Takes', '0', 'Please enter a number of takes of at least 1'],
    ['Takes', '6', 'Please enter a number of takes of at most 5'],
    ['Preparation time (seconds)', '-1', 'Please enter a preparation time of 0 to 300 seconds'],
    ['Preparation time (seconds)', '301', 'Please enter a preparation time of 0 to 300 seconds'],
    ['Preparation time (seconds)', '2.5', 'Please enter a whole number of seconds'],
  ])('shows %s = %# as invalid: %s', async (label, value, message) => {
    const { user, onSubmit } = renderForm();
    fillValid();
    set(label, value);
    await submit(user);
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('accepts every field at its limits', async () => {
    const { user, onSubmit } = renderForm();
    for (const [title, description, timeout, takes, preparation] of [
      ['abc', 'abc', '5', '1', '0'],
      ['a'.repeat(100), 'd'.repeat(1000), '600', '5', '300'],
    ] as const) {
      set('Title', title);
      set('Description', description);
      set('Timeout (seconds)', timeout);
      set('Takes', takes);
      set('Preparation time (seconds)', preparation);
      await submit(user);
      await waitFor(() =>
        expect(onSubmit).toHaveBeenLastCalledWith({
          title,
          description,
          timeout: Number(timeout),
          canPreview: false,
          kind: { type: 'video', takes: Number(takes), preparation: Number(preparation) },
        }),
      );
    }
    expect(screen.queryByText(/Please enter/)).not.toBeInTheDocument();
  });

  it('switching to text clears the kind data; switching back to video sets takes to 1 and preparation to 30 s', async () => {
    const { user, onSubmit } = renderForm();
    fillValid();
    set('Takes', '4');
    set('Preparation time (seconds)', '90');
    await user.click(screen.getByRole('radio', { name: 'Text' }));
    expect(screen.queryByLabelText('Takes')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Preparation time (seconds)')).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Candidates can preview the question before answering'));
    await submit(user);
    await waitFor(() =>
      expect(onSubmit).toHaveBeenLastCalledWith(
        expect.objectContaining({ canPreview: true, kind: { type: 'text' } }),
      ),
    );

    await user.click(screen.getByRole('radio', { name: 'Video' }));
    expect(screen.getByLabelText('Takes')).toHaveValue(1);
    expect(screen.getByLabelText('Preparation time (seconds)')).toHaveValue(30);
    await submit(user);
    await waitFor(() =>
      expect(onSubmit).toHaveBeenLastCalledWith(expect.objectContaining({ kind: { type: 'video', takes: 1, preparation: 30 } })),
    );
  });

  it('an edited text question switched to video starts at 1 take', async () => {
    const { user } = renderForm({ title: 'Why us?', description: 'Tell us.', timeout: 60, canPreview: true, kind: { type: 'text' } });
    expect(screen.getByRole('radio', { name: 'Text' })).toBeChecked();
    expect(screen.queryByLabelText('Takes')).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Video' }));
    expect(screen.getByLabelText('Takes')).toHaveValue(1);
  });

  it("puts a server error on its field, in the app's words", async () => {
    const { ClientResponseError } = await import('pocketbase');
    const { user, onSubmit } = renderForm();
    onSubmit.mockRejectedValueOnce(
      new ClientResponseError({
        status: 400,
        response: { message: 'Failed.', data: { title: { code: 'validation_not_unique', message: 'Value must be unique.' } } },
      }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    fillValid();
    await submit(user);
    expect(await screen.findByText('This is already taken. Choose another value.')).toBeInTheDocument();
    expect(screen.queryByText(/Value must be unique/)).not.toBeInTheDocument();
  });
});
