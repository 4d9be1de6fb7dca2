import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { chars, fillFields } from '@/testing/form';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { buildUser, signInAs } from '@/testing/session';

async function openProfile(overrides = {}) {
  signInAs({ primaryCompany: '', ...overrides });
  // applyAccept off: the picker's `accept` must not stop a wrong file before the form's own check.
  const user = userEvent.setup({ applyAccept: false });
  const view = renderRoute('/preferences/profile');
  await screen.findByRole('heading', { level: 1, name: 'Profile' });
  return { user, view };
}

const png = (name = 'me.png') => new File(['png-bytes'], name, { type: 'image/png' });

describe('profile', () => {
  // jsdom has no object URLs: count the ones made and released.
  const revokeObjectURL = vi.fn<(url: string) => void>();
  beforeEach(() => {
    let next = 0;
    revokeObjectURL.mockClear();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => `blob:preview-${(next += 1)}`, revokeObjectURL }));
  });
  afterEach(() => vi.unstubAllGlobals());

  it("starts with the user's values and the side links", async () => {
    await openProfile();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(screen.getByLabelText('Last name')).toHaveValue('Lovelace');
    const nav = screen.getByRole('navigation', { name: 'Preferences' });
    for (const [name, href] of [
      ['General', '/preferences/profile'],
      ['Change password', '/preferences/password'],
      ['Change email', '/preferences/email'],
    ]) {
      expect(nav.querySelector(`a[href="${href}"]`)).toHaveTextContent(name as string);
    }
  });

  it.each([
    ['First name', chars(2), 'Name must be at least 3 characters'],
    ['First name', chars(101), 'Name must be at most 100 characters'],
    ['Last name', chars(2), 'Name must be at least 3 characters'],
    ['Last name', chars(101), 'Name must be at most 100 characters'],
    ['Email', 'ada@', 'Please enter a valid email address.'],
    ['Email', '', 'Please enter a valid email address.'],
  ])('%s %j: %s', async (label, value, message) => {
    const { user } = await openProfile();
    await fillFields(user, { [label]: value });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('refuses a file that is not an image', async () => {
    const { user } = await openProfile();
    await user.upload(screen.getByLabelText('Avatar'), new File(['%PDF'], 'cv.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText('Please choose a PNG, JPEG, WebP or GIF image')).toBeInTheDocument();
  });

  it('previews a picked file locally, releases the previous preview, else shows the stored avatar', async () => {
    const { user } = await openProfile({ avatar: 'stored_abc.png' });
    expect(screen.getByRole('img', { name: 'Your avatar' })).toHaveAttribute(
      'src',
      expect.stringMatching(/\/api\/files\/_pb_users_auth_\/u1\/stored_abc\.png$/),
    );
    await user.upload(screen.getByLabelText('Avatar'), png('one.png'));
    expect(await screen.findByRole('img', { name: 'New avatar preview' })).toHaveAttribute('src', 'blob:preview-1');
    await user.upload(screen.getByLabelText('Avatar'), png('two.png'));
    await waitFor(() =>
      expect(screen.getByRole('img', { name: 'New avatar preview' })).toHaveAttribute('src', 'blob:preview-2'),
    );
    expect(revokeObjectURL).toHaveBeenCalledWith('blob:preview-1');
    expect(revokeObjectURL).not.toHaveBeenCalledWith('blob:preview-2');
  });

  // The multipart upload of the avatar is proven against the real server in e2e/accounts.spec.ts (jsdom's
  // FormData does not travel through Node's fetch).
  it('saves names of 3 and 100 characters, then says so', async () => {
    let body: unknown;
    server.use(
      http.patch('*/api/collections/users/records/u1', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(buildUser({ firstName: 'Bob', lastName: chars(100) }));
      }),
    );
    const { user } = await openProfile();
    await fillFields(user, { 'First name': 'Bob', 'Last name': chars(100) });
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Your profile was saved')).toBeInTheDocument();
    expect(body).toEqual({ firstName: 'Bob', lastName: chars(100), completionMailsOff: false });
  });

  it('sends a new e-mail address through the confirmation link, not the record', async () => {
    let patch: unknown;
    let change: unknown;
    server.use(
      http.patch('*/api/collections/users/records/u1', async ({ request }) => {
        patch = await request.json();
        return HttpResponse.json(buildUser());
      }),
      http.post('*/api/collections/users/request-email-change', async ({ request }) => {
        change = await request.json();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = await openProfile();
    await fillFields(user, { Email: ' Grace@Example.com ' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('We sent a link to grace@example.com to confirm your new email')).toBeInTheDocument();
    expect(patch).toEqual({ firstName: 'Ada', lastName: 'Lovelace', completionMailsOff: false });
    expect(change).toEqual({ newEmail: 'grace@example.com' });
    // Until the link is followed the account keeps its address.
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com'));
  });

  // users.completionMailsOff is stored the other way round: false (the default) means the e-mails are wanted.
  it.each([
    [false, true],
    [true, false],
  ])(
    "stored completionMailsOff %s: the completion e-mails box starts ticked %s, and toggled saves the opposite",
    async (storedOff, ticked) => {
      let body: unknown;
      server.use(
        http.patch('*/api/collections/users/records/u1', async ({ request }) => {
          body = await request.json();
          return HttpResponse.json(buildUser({ completionMailsOff: !storedOff }));
        }),
      );
      const { user } = await openProfile({ completionMailsOff: storedOff });
      const box = screen.getByRole('checkbox', { name: 'E-mail me when a candidate finishes an interview' });
      if (ticked) expect(box).toBeChecked();
      else expect(box).not.toBeChecked();
      await user.click(box);
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Your profile was saved')).toBeInTheDocument();
      expect(body).toEqual({ firstName: 'Ada', lastName: 'Lovelace', completionMailsOff: !storedOff });
      if (ticked) expect(box).not.toBeChecked();
      else expect(box).toBeChecked();
    },
  );

  it('keeps what was typed and shows a server field error under its field', async () => {
    server.use(
      http.patch('*/api/collections/users/records/u1', () =>
        HttpResponse.json(
          {
            status: 400,
            message: 'Failed to update record.',
            data: { lastName: { code: 'validation_min_text_constraint', message: 'Must be at least 3 character(s).' } },
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openProfile();
    await fillFields(user, { 'First name': 'Bobby' });
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter at least 3 characters.')).toBeInTheDocument();
    expect(screen.queryByText(/Must be at least/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveValue('Bobby');
  });
});
