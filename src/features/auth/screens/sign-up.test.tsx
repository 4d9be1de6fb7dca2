import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { buildUser, fakeAuthToken } from '@/testing/session';

import { chars, fillFields } from '@/testing/form';

import { resetResendCooldowns } from '../components/check-inbox';

afterEach(resetResendCooldowns);

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

  it("without a verified account: requests verification and shows 'Check your inbox' naming the address (3 and 100 character names)", async () => {
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

    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText('Your account was created, please confirm your email')).toBeInTheDocument();
    expect(screen.getByText('ada@example.com')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Use another address' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth/sign-in');
    expect(view.router.state.location.pathname).toBe('/auth/sign-up');
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

  describe('a verification e-mail the server refused: the sign-up succeeded all the same (security round three)', () => {
    function refusedVerification(response: () => Response) {
      server.use(
        http.post('*/api/collections/users/records', () =>
          HttpResponse.json(buildUser({ email: 'ada@example.com', verified: false })),
        ),
        http.post('*/api/collections/users/request-verification', response),
      );
    }

    it("for the client's mail limit (429 with retryAfter): 'Check your inbox', and the resend waits as long as the server said", async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      refusedVerification(() =>
        HttpResponse.json(
          { status: 429, message: 'Too Many Requests.', data: {}, retryAfter: 540 },
          { status: 429, headers: { 'Retry-After': '540' } },
        ),
      );
      const { user, view } = await openSignUp();
      await fillFields(user, VALID);
      await user.click(screen.getByRole('button', { name: 'Sign up' }));

      expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
      expect(screen.getByText('Your account was created, please confirm your email')).toBeInTheDocument();
      expect(screen.getByText(/^Too many e-mails were asked for from your network in a short time, so this one was not sent\./)).toBeInTheDocument();
      expect(screen.getByText('ada@example.com')).toBeInTheDocument();
      expect(screen.getByText('You can ask for another e-mail in 9 minutes.')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeDisabled();
      expect(screen.queryByText(/Too Many Requests/)).not.toBeInTheDocument();
      expect(screen.queryByRole('heading', { name: 'Sign Up' })).not.toBeInTheDocument();
      expect(view.router.state.location.pathname).toBe('/auth/sign-up');
      expect(error).toHaveBeenCalled();
      error.mockRestore();
    });

    it("for another reason (500): 'Check your inbox', saying it was not sent, with the resend ready", async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      refusedVerification(() => HttpResponse.json({ status: 500, message: 'Internal error.', data: {} }, { status: 500 }));
      const { user } = await openSignUp();
      await fillFields(user, VALID);
      await user.click(screen.getByRole('button', { name: 'Sign up' }));

      expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
      expect(screen.getByText(/^The e-mail could not be sent just now\./)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeEnabled();
      expect(screen.queryByText(/Internal error/)).not.toBeInTheDocument();
      error.mockRestore();
    });
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
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(
      await screen.findByText('An account with this e-mail already exists. Sign in, or use another address.'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/Value must be unique/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('First name')).toHaveValue('Ada');
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  describe("'Check your inbox'", () => {
    async function signUpUnverified(resend: () => Response | Promise<Response>) {
      const resent: unknown[] = [];
      let first = true;
      server.use(
        http.post('*/api/collections/users/records', () =>
          HttpResponse.json(buildUser({ email: 'ada@example.com', verified: false })),
        ),
        http.post('*/api/collections/users/request-verification', async ({ request }) => {
          if (first) {
            first = false;
            return new HttpResponse(null, { status: 204 });
          }
          resent.push(await request.json());
          return resend();
        }),
      );
      const { user, view } = await openSignUp();
      await fillFields(user, VALID);
      await user.click(screen.getByRole('button', { name: 'Sign up' }));
      await screen.findByRole('heading', { name: 'Check your inbox' });
      return { user, view, resent };
    }

    it('resends the e-mail, says so, then rests the button for a while and says until when', async () => {
      const { user, resent } = await signUpUnverified(() => new HttpResponse(null, { status: 204 }));
      await user.click(screen.getByRole('button', { name: 'Resend the e-mail' }));
      expect(await screen.findByText('We sent the e-mail again to ada@example.com.')).toBeInTheDocument();
      expect(resent).toEqual([{ email: 'ada@example.com' }]);
      // the rest starts as the button re-renders after the send (an effect)
      await waitFor(() => expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeDisabled());
      expect(await screen.findByText(/^You can ask for another e-mail in (60|59) seconds\.$/)).toBeInTheDocument();
    });

    it.each([
      [429, 'Too Many Requests.', 'Too many attempts in a short time. Wait a few minutes, then try again.'],
      [500, 'Internal error.', 'Something went wrong while processing your request.'],
    ])('a refused resend (%i) says what happened in the words of the app, and the button stays', async (status, message, expected) => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const { user } = await signUpUnverified(() => HttpResponse.json({ status, message, data: {} }, { status }));
      await user.click(screen.getByRole('button', { name: 'Resend the e-mail' }));
      expect(await screen.findByText(expected)).toBeInTheDocument();
      expect(screen.queryByText(message)).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeEnabled();
      error.mockRestore();
    });

    it("a resend refused for the client's mail limit says so and rests the button as long as the server said", async () => {
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const { user } = await signUpUnverified(() =>
        HttpResponse.json({ status: 429, message: 'Too Many Requests.', data: {}, retryAfter: 120 }, { status: 429 }),
      );
      await user.click(screen.getByRole('button', { name: 'Resend the e-mail' }));
      expect(
        await screen.findByText('Too many e-mails were asked for from your network in a short time, so this one was not sent.'),
      ).toBeInTheDocument();
      // the rest starts as the button re-renders (an effect, as after a send)
      expect(await screen.findByText('You can ask for another e-mail in 2 minutes.')).toBeInTheDocument();
      await waitFor(() => expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeDisabled());
      error.mockRestore();
    });

    it("'Use another address' goes back to the form with everything but the e-mail", async () => {
      const { user } = await signUpUnverified(() => new HttpResponse(null, { status: 204 }));
      await user.click(screen.getByRole('button', { name: 'Use another address' }));
      expect(await screen.findByRole('heading', { name: 'Sign Up' })).toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toHaveValue('');
      expect(screen.getByLabelText('First name')).toHaveValue('Ada');
      expect(screen.getByLabelText('Password')).toHaveValue('password');
    });
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
