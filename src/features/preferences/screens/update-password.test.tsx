import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { chars, fillFields } from '@/testing/form';
import { pb } from '@/lib/pocketbase';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { buildUser, fakeAuthToken, signInAs } from '@/testing/session';

async function openPassword() {
  signInAs({ primaryCompany: '' });
  const user = userEvent.setup();
  renderRoute('/preferences/password');
  await screen.findByRole('heading', { level: 1, name: 'Update Password' });
  return user;
}

const VALID = { 'Current password': 'old-password', 'New password': 'new-password', 'Confirm new password': 'new-password' };

describe('update password', () => {
  it('has no prefilled value', async () => {
    await openPassword();
    for (const label of Object.keys(VALID)) expect(screen.getByLabelText(label)).toHaveValue('');
  });

  it('shows the messages of an empty form', async () => {
    const user = await openPassword();
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Please enter your current password')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters')).toBeInTheDocument();
  });

  it('wants 8 characters and a matching confirmation', async () => {
    const user = await openPassword();
    await fillFields(user, { ...VALID, 'New password': chars(7), 'Confirm new password': chars(7) });
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();

    await fillFields(user, { 'New password': chars(8), 'Confirm new password': chars(9) });
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.queryByText('Password must be at least 8 characters')).not.toBeInTheDocument();
  });

  it('saves an 8-character password, signs in again with it and says so', async () => {
    let patch: unknown;
    let auth: unknown;
    const token = fakeAuthToken('u1', { expiresInSeconds: 7200 });
    server.use(
      http.patch('*/api/collections/users/records/u1', async ({ request }) => {
        patch = await request.json();
        return HttpResponse.json(buildUser());
      }),
      http.post('*/api/collections/users/auth-with-password', async ({ request }) => {
        auth = await request.json();
        return HttpResponse.json({ token, record: buildUser() });
      }),
    );
    const user = await openPassword();
    await fillFields(user, { ...VALID, 'New password': chars(8), 'Confirm new password': chars(8) });
    await user.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(await screen.findByText('Your password was updated')).toBeInTheDocument();
    expect(patch).toEqual({ oldPassword: 'old-password', password: chars(8), passwordConfirm: chars(8) });
    expect(auth).toEqual({ identity: 'ada@example.com', password: chars(8) });
    expect(pb.authStore.token).toBe(token);
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
  });

  it("puts the server's refusal of the current password under it and keeps what was typed", async () => {
    server.use(
      http.patch('*/api/collections/users/records/u1', () =>
        HttpResponse.json(
          {
            status: 400,
            message: 'Failed to update record.',
            data: { oldPassword: { code: 'validation_invalid_old_password', message: 'Missing or invalid old password.' } },
          },
          { status: 400 },
        ),
      ),
    );
    const user = await openPassword();
    await fillFields(user, VALID);
    await user.click(screen.getByRole('button', { name: 'Update Password' }));
    expect(await screen.findByText('Your current password is not right.')).toBeInTheDocument();
    expect(screen.queryByText(/Missing or invalid/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveValue('new-password');
  });
});
