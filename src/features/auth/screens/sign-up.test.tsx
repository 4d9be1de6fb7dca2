import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { buildUser, fakeAuthToken } from '@/testing/session';

import { chars, fillFields } from '@/testing/form';

const VALID = {
  'First name': 'Ada',
  'Last name': 'Lovelace',
  Email: 'ada@example.com',
  Password: 'password',
  'Repeat password': 'password',
};

async function openSignUp(path = '/auth/sign-up') {
  const user = userEvent.setup();
  const view = renderRoute(path);
  await screen.findByRole('heading', { name: 'Sign Up' });
  return { user, view };
}

describe('sign-up', () => {
  it('shows every message of an empty form', async () => {
    const { user } = await openSignUp();
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findAllByText('Name must be at least 3 characters')).toHaveLength(2);
    expect(screen.getByText('Email is invalid')).toBeInTheDocument();
    expect(screen.getAllByText('Password must be at least 8 characters')).toHaveLength(2);
  });

  it.each([
    ['First name', chars(2), 'Name must be at least 3 characters'],
    ['First name', chars(101), 'Name must be at most 100 characters'],
    ['Last name', chars(2), 'Name must be at least 3 characters'],
    ['Last name', chars(101), 'Name must be at most 100 characters'],
    ['Email', 'ada@', 'Email is invalid'],
    ['Password', chars(7), 'Password must be at least 8 characters'],
  ])('%s %j: %s', async (label, value, message) => {
    const { user } = await openSignUp();
    await fillFields(user, { ...VALID, [label]: value });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('wants the repeated password to be 8 characters and to match', async () => {
    const { user } = await openSignUp();
    await fillFields(user, { ...VALID, 'Repeat password': chars(7) });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();

    await fillFields(user, { 'Repeat password': 'passwort' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.queryByText('Password must be at least 8 characters')).not.toBeInTheDocument();
  });

  it('without a verified account: requests verification, goes to sign-in and says so (3 and 100 character names)', async () => {
    let created: unknown;
    let verification: unknown;
    server.use(
      http.post('*/api/collections/users/records', async ({ request }) => {
        created = await request.json();
        return HttpResponse.json(buildUser({ email: 'ada@example.com', verified: false }));
      }),
      http.post('*/api/collections/users/request-verification', async ({ request }) => {
        verification = await request.json();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, view } = await openSignUp();
    await fillFields(user, {
      ...VALID,
      'First name': 'Ada',
      'Last name': chars(100),
      Email: ' ADA@example.com ',
      Password: chars(8),
      'Repeat password': chars(8),
    });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    expect(await screen.findByText('Your account was created, please confirm your email')).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/sign-in'));
    expect(created).toEqual({
      firstName: 'Ada',
      lastName: chars(100),
      email: 'ada@example.com',
      password: chars(8),
      passwordConfirm: chars(8),
      emailVisibility: true,
    });
    expect(verification).toEqual({ email: 'ada@example.com' });
  });

  it('puts a server field error under its field and keeps what was typed', async () => {
    server.use(
      http.post('*/api/collections/users/records', () =>
        HttpResponse.json(
          {
            status: 400,
            message: 'Failed to create record.',
            data: { email: { code: 'validation_not_unique', message: 'Value must be unique.' } },
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openSignUp();
    await fillFields(user, VALID);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Value must be unique')).toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
  });

  it('with an invite: a disabled prefilled e-mail, no sign-in link, and a verified account signs in at once', async () => {
    let created: Record<string, unknown> = {};
    server.use(
      http.post('*/api/collections/users/records', async ({ request }) => {
        created = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(buildUser({ email: 'grace@example.com', verified: true, primaryCompany: 'c1' }));
      }),
      http.post('*/api/collections/users/auth-with-password', () =>
        HttpResponse.json({
          token: fakeAuthToken('u1'),
          record: buildUser({ email: 'grace@example.com', primaryCompany: 'c1' }),
        }),
      ),
    );
    // Signed in, the user lands on the company of the invite (c1, with no jobs yet), in the manager shell.
    managerShellApi();
    const { user, view } = await openSignUp('/auth/sign-up?invite=inv1&email=grace%40example.com');
    const email = screen.getByLabelText('Email');
    expect(email).toBeDisabled();
    expect(email).toHaveValue('grace@example.com');
    expect(screen.queryByRole('link', { name: 'Sign In' })).not.toBeInTheDocument();

    await fillFields(user, {
      'First name': VALID['First name'],
      'Last name': VALID['Last name'],
      Password: VALID.Password,
      'Repeat password': VALID['Repeat password'],
    });
    await user.click(screen.getByRole('button', { name: 'Accept invitation' }));

    await waitFor(() => expect(view.router.state.location.pathname).toBe('/companies/c1/jobs'));
    expect(created).toMatchObject({ email: 'grace@example.com', invite: 'inv1', emailVisibility: true });
  });

  it('without an invite offers the way to sign-in', async () => {
    await openSignUp();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth/sign-in');
    expect(screen.getByText('or')).toBeInTheDocument();
  });
});
