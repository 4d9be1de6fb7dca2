import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { chars, fillFields } from '@/testing/form';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

describe('confirm verification', () => {
  it('confirms the token once, says so and goes to sign-in', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('*/api/collections/users/confirm-verification', async ({ request }) => {
        bodies.push(await request.json());
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const view = renderRoute('/auth/confirm-verification/t0k3n');
    expect(await screen.findByText('Your email is confirmed, you can sign in now')).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/sign-in'));
    expect(bodies).toEqual([{ token: 't0k3n' }]);
  });

  it("shows the server's message for a bad token", async () => {
    server.use(
      http.post('*/api/collections/users/confirm-verification', () =>
        HttpResponse.json({ status: 400, message: 'Invalid or expired verification token.', data: {} }, { status: 400 }),
      ),
    );
    renderRoute('/auth/confirm-verification/bad');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link has expired or was already used. Ask for a new e-mail.',
    );
    expect(screen.queryByText(/Invalid or expired/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth/sign-in');
  });
});

describe('confirm password reset', () => {
  async function open() {
    const user = userEvent.setup();
    const view = renderRoute('/auth/confirm-password-reset/t0k3n');
    await screen.findByRole('heading', { name: 'Set a new password' });
    return { user, view };
  }

  it('wants 8 characters twice, matching', async () => {
    const { user } = await open();
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findAllByText('Password must be at least 8 characters')).toHaveLength(2);

    await fillFields(user, { 'New password': chars(8), 'Repeat new password': 'b'.repeat(8) });
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
  });

  it('sets the password with the token, says so and goes to sign-in', async () => {
    let body: unknown;
    server.use(
      http.post('*/api/collections/users/confirm-password-reset', async ({ request }) => {
        body = await request.json();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, view } = await open();
    await fillFields(user, { 'New password': chars(8), 'Repeat new password': chars(8) });
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByText('Your password was changed, you can sign in with it now')).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/sign-in'));
    expect(body).toEqual({ token: 't0k3n', password: chars(8), passwordConfirm: chars(8) });
  });
});

describe('confirm email change', () => {
  it('asks for the password', async () => {
    const user = userEvent.setup();
    renderRoute('/auth/confirm-email-change/t0k3n');
    await user.click(await screen.findByRole('button', { name: 'Confirm email change' }));
    expect(await screen.findByText('Please enter your password')).toBeInTheDocument();
  });

  it("confirms with the password, ends this browser's session of the account and goes to sign-in", async () => {
    let body: unknown;
    server.use(
      http.post('*/api/collections/users/confirm-email-change', async ({ request }) => {
        body = await request.json();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    signInAs({ primaryCompany: '' });
    // A token for the signed-in user u1 (the SDK compares its `id` claim with the stored record).
    const token = `${btoa(JSON.stringify({ alg: 'HS256' }))}.${btoa(JSON.stringify({ id: 'u1', collectionId: '_pb_users_auth_' }))}.sig`;
    const user = userEvent.setup();
    const view = renderRoute(`/auth/confirm-email-change/${token}`);
    await screen.findByRole('heading', { name: 'Confirm email change' });
    await fillFields(user, { Password: 'my-password' });
    await user.click(screen.getByRole('button', { name: 'Confirm email change' }));
    expect(await screen.findByText('Your email was changed, please sign in with the new one')).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/sign-in'));
    expect(body).toEqual({ token, password: 'my-password' });
    expect(pb.authStore.token).toBe('');
  });
});
