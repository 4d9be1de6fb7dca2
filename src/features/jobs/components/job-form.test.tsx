import { Theme } from '@radix-ui/themes';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { ClientResponseError } from 'pocketbase';
import { describe, expect, it, vi } from 'vitest';

import { server } from '@/testing/msw-server';
import { createTestQueryClient } from '@/testing/render-route';

import type { JobFormInput, JobFormValues } from '../schemas';

import { JobForm } from './job-form';

const bank = [
  { id: 'q1', title: 'Tell us about yourself' },
  { id: 'q2', title: 'Describe a hard bug' },
  { id: 'q3', title: 'Why us?' },
].map((q) => ({
  ...q,
  collectionId: 'questions',
  collectionName: 'questions',
  company: 'c1',
  description: 'd',
  timeout: 60,
  canPreview: false,
  created: '2024-01-01 00:00:00.000Z',
  updated: '2024-01-01 00:00:00.000Z',
}));

function renderForm(defaultValues: JobFormInput = { title: '', description: '', location: '', questions: [] }) {
  server.use(
    http.get('*/api/collections/questions/records', ({ request }) => {
      expect(new URL(request.url).searchParams.get('filter')).toBe('company = "c1"');
      return HttpResponse.json({ page: 1, perPage: 500, totalItems: 3, totalPages: 1, items: bank });
    }),
  );
  const onSubmit = vi.fn<(values: JobFormValues) => Promise<void>>().mockResolvedValue(undefined);
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <Theme>
        <JobForm companyId="c1" defaultValues={defaultValues} submitLabel="Create Job" onSubmit={onSubmit} cancel={null} />
      </Theme>
    </QueryClientProvider>,
  );
  return { onSubmit, user: userEvent.setup() };
}

function set(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

const valid = { title: 'Senior Engineer', description: 'Build things.', location: 'Remote', welcomeMessage: '', questions: ['q2'] };

describe('JobForm', () => {
  it('requires every field and at least one question', async () => {
    const { user, onSubmit } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    expect(await screen.findByText('Title is required')).toBeInTheDocument();
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    expect(screen.getByText('Location is required')).toBeInTheDocument();
    expect(screen.getByText('Please add at least one question')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it.each([
    ['Title', 2, 'Title must be at least 3 characters'],
    ['Title', 129, 'Title must be at most 128 characters'],
    ['Description', 2, 'Description must be at least 3 characters'],
    ['Description', 5001, 'Description must be at most 5000 characters'],
    ['Location', 2, 'Location must be at least 3 characters'],
    ['Location', 65, 'Location must be at most 64 characters'],
  ])('shows a %s of %i characters as invalid: %s', async (label, length, message) => {
    const { user, onSubmit } = renderForm(valid);
    set(label, 'a'.repeat(length));
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('accepts every field at its limits', async () => {
    const { user, onSubmit } = renderForm(valid);
    for (const [title, description, location] of [
      ['abc', 'abc', 'abc'],
      ['t'.repeat(128), 'd'.repeat(5000), 'l'.repeat(64)],
    ] as const) {
      set('Title', title);
      set('Description', description);
      set('Location', location);
      await user.click(screen.getByRole('button', { name: 'Create Job' }));
      await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ title, description, location, welcomeMessage: '', responseDays: 0, language: 'en', questions: ['q2'] }));
    }
  });

  it('adds questions through the picker, which leaves out those already in the job', async () => {
    const { user, onSubmit } = renderForm(valid);
    expect(await screen.findByRole('button', { name: 'Move Describe a hard bug' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add' }));
    const picker = await screen.findByRole('dialog', { name: 'Add questions' });
    expect(within(picker).queryByLabelText('Describe a hard bug')).not.toBeInTheDocument();
    await user.click(within(picker).getByLabelText('Why us?'));
    await user.click(within(picker).getByLabelText('Tell us about yourself'));
    await user.click(within(picker).getByRole('button', { name: 'Add selected' }));

    const list = screen.getByRole('list', { name: 'Questions of this job' });
    // Appended in the bank's order.
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      '1.Describe a hard bug',
      '2.Tell us about yourself',
      '3.Why us?',
    ]);

    await user.click(screen.getByRole('button', { name: 'Remove Tell us about yourself' }));
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ ...valid, responseDays: 0, language: 'en', questions: ['q2', 'q3'] }));
  });

  it('removing the last question brings back the message', async () => {
    const { user, onSubmit } = renderForm(valid);
    await user.click(await screen.findByRole('button', { name: 'Remove Describe a hard bug' }));
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    expect(await screen.findByText('Please add at least one question')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("takes an optional welcome message up to 1,000 characters, with a counter near the limit", async () => {
    const { user, onSubmit } = renderForm(valid);
    const welcome = screen.getByLabelText('Welcome message (optional)');
    expect(welcome.tagName).toBe('TEXTAREA');
    set('Welcome message (optional)', 'Hello!\nTake your time.');
    expect(screen.queryByText(/of 1000 characters/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ ...valid, responseDays: 0, language: 'en', welcomeMessage: 'Hello!\nTake your time.' }));

    set('Welcome message (optional)', 'w'.repeat(900));
    expect(screen.getByText('900 of 1000 characters')).toBeInTheDocument();
    set('Welcome message (optional)', 'w'.repeat(1000));
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ ...valid, responseDays: 0, language: 'en', welcomeMessage: 'w'.repeat(1000) }));

    onSubmit.mockClear();
    set('Welcome message (optional)', 'w'.repeat(1001));
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    expect(await screen.findByText('Welcome message must be at most 1000 characters')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('takes an optional response time of 0 to 365 days, empty meaning no deadline (issue 17)', async () => {
    const { user, onSubmit } = renderForm(valid);
    const field = screen.getByLabelText('Response time (days)');
    expect(field).toHaveValue(null);
    expect(screen.getByText(/Empty or 0: no deadline/)).toBeInTheDocument();

    for (const [typed, sent] of [['7', 7], ['0', 0], ['365', 365], ['', 0]] as const) {
      set('Response time (days)', typed);
      await user.click(screen.getByRole('button', { name: 'Create Job' }));
      await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ ...valid, responseDays: sent, language: 'en' }));
    }

    for (const [typed, message] of [
      ['366', 'Please enter a response time of 0 to 365 days'],
      ['-1', 'Please enter a response time of 0 to 365 days'],
      ['1.5', 'Please enter a whole number of days'],
    ] as const) {
      onSubmit.mockClear();
      set('Response time (days)', typed);
      await user.click(screen.getByRole('button', { name: 'Create Job' }));
      expect(await screen.findByText(message)).toBeInTheDocument();
      expect(screen.getByLabelText('Response time (days)')).toHaveAttribute('aria-invalid', 'true');
      expect(onSubmit).not.toHaveBeenCalled();
    }
  });

  it('offers the nine candidate languages by their own names, English first and chosen for a new job, and saves the one picked', async () => {
    const { user, onSubmit } = renderForm(valid);
    const select = screen.getByRole('combobox', { name: 'Candidate language' });
    expect(select).toHaveValue('en');
    const options = within(select).getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['English', 'Deutsch', 'Français', 'Español', 'Nederlands', 'Português', 'Italiano', 'Polski', 'العربية']);
    expect(options.map((option) => option.getAttribute('value'))).toEqual(['en', 'de', 'fr', 'es', 'nl', 'pt', 'it', 'pl', 'ar']);
    // each name marked as its own language, for a screen reader to say it as such
    expect(options.map((option) => option.getAttribute('lang'))).toEqual(['en', 'de', 'fr', 'es', 'nl', 'pt', 'it', 'pl', 'ar']);
    expect(screen.getByText(/transcripts are in this language/)).toBeInTheDocument();

    await user.selectOptions(select, 'Deutsch');
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    await waitFor(() => expect(onSubmit).toHaveBeenLastCalledWith({ ...valid, responseDays: 0, language: 'de' }));
  });

  it("starts from the edited job's language", () => {
    renderForm({ ...valid, language: 'ar' });
    expect(screen.getByRole('combobox', { name: 'Candidate language' })).toHaveValue('ar');
  });

  it("shows the server's refusal of the language under the select, keeping what was chosen", async () => {
    const { user, onSubmit } = renderForm(valid);
    onSubmit.mockRejectedValueOnce(
      new ClientResponseError({
        status: 400,
        response: { status: 400, message: 'Failed to create record.', data: { language: { code: 'validation_invalid_value', message: 'Invalid value pl.' } } },
      }),
    );
    const select = screen.getByRole('combobox', { name: 'Candidate language' });
    await user.selectOptions(select, 'Polski');
    await user.click(screen.getByRole('button', { name: 'Create Job' }));
    await waitFor(() => expect(select).toHaveAttribute('aria-invalid', 'true'));
    expect(select).toHaveValue('pl');
    expect(select).toHaveAccessibleDescription('Please choose one of the offered values.');
  });
});
