import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { buildUser, fakeAuthToken } from '@/testing/session';

import { fillFields } from '@/testing/form';

import { resetResendCooldowns } from '../components/check-inbox';

const submit = () => screen.getByRole('button', { name: 'Sign In' });

afterEach(resetResendCooldowns);

describe('sign-in', () => {
  it('shows both messages for an empty form and sends nothing', async () => {
    const user = userEvent.setup();
    renderRoute('/auth/sign-in');
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a password.')).toBeInTheDocument();
  });

  it.each(['ada', 'ada@', '@example.com', 'ada example.com'])('rejects the e-mail %j', async (email) => {
    const user = userEvent.setup();
    renderRoute('/auth/sign-in');
    await screen.findByRole('heading', { name: 'Sign In' });
    await fillFields(user, { Email: email, Password: 'x' });
    await user.click(submit());
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(screen.queryByText('Please enter a password.')).not.toBeInTheDocument();
  });

  it('signs in with a one-character password and a trimmed, lower-cased e-mail, then goes home', async () => {
    let body: unknown;
    server.use(
      http.post('*/api/collections/users/auth-with-password', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ token: fakeAuthToken('u1'), record: buildUser({ primaryCompany: '' }) });
      }),
    );
    const user = userEvent.setup();
    const view = renderRoute('/auth/sign-in');
    await screen.findByRole('heading', { name: 'Sign In' });
    await fillFields(user, { Email: '  Ada@Example.COM ', Password: 'x' });
    await user.click(submit());
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/companies/new'));
    expect(body).toEqual({ identity: 'ada@example.com', password: 'x' });
  });

  it('says a wrong e-mail or password under the password, in its own words, and keeps what was typed', async () => {
    server.use(
      http.post('*/api/collections/users/auth-with-password', () =>
        HttpResponse.json({ status: 400, message: 'Failed to authenticate.', data: {} }, { status: 400 }),
      ),
    );
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderRoute('/auth/sign-in');
    await screen.findByRole('heading', { name: 'Sign In' });
    await fillFields(user, { Email: 'ada@example.com', Password: 'wrong' });
    await user.click(submit());
    expect(await screen.findByText('The e-mail or password is not right. Check them and try again.')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      'The e-mail or password is not right. Check them and try again.',
    );
    expect(screen.queryByText(/Failed to authenticate/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Password')).toHaveValue('wrong');
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it.each([
    [429, 'Too Many Requests.', 'Too many attempts in a short time. Wait a few minutes, then try again.'],
    [500, 'Something went wrong.', 'Something went wrong while processing your request.'],
  ])('a %i becomes a toast in the words of the app', async (status, message, expected) => {
    server.use(
      http.post('*/api/collections/users/auth-with-password', () =>
        HttpResponse.json({ status, message, data: {} }, { status }),
      ),
    );
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderRoute('/auth/sign-in');
    await screen.findByRole('heading', { name: 'Sign In' });
    await fillFields(user, { Email: 'ada@example.com', Password: 'pw' });
    await user.click(submit());
    expect(await screen.findByText(expected)).toBeInTheDocument();
    if (status === 429) expect(screen.queryByText(/Too Many Requests/)).not.toBeInTheDocument();
    error.mockRestore();
  });

  it('a network failure says the server could not be reached', async () => {
    server.use(http.post('*/api/collections/users/auth-with-password', () => HttpResponse.error()));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderRoute('/auth/sign-in');
    await screen.findByRole('heading', { name: 'Sign In' });
    await fillFields(user, { Email: 'ada@example.com', Password: 'pw' });
    await user.click(submit());
    expect(await screen.findByText('The server could not be reached. Check your connection, then try again.')).toBeInTheDocument();
    error.mockRestore();
  });

  describe('an account whose e-mail is not confirmed (403)', () => {
    const refuseUnverified = () =>
      http.post('*/api/collections/users/auth-with-password', () =>
        HttpResponse.json(
          { status: 403, message: "The request doesn't satisfy the collection requirements to authenticate.", data: {} },
          { status: 403 },
        ),
      );

    async function signInUnverified() {
      const user = userEvent.setup();
      const view = renderRoute('/auth/sign-in');
      await screen.findByRole('heading', { name: 'Sign In' });
      await fillFields(user, { Email: 'Ada@Example.com', Password: 'correct-horse' });
      await user.click(submit());
      return { user, view };
    }

    it("says so in the app's own words, offers a new link and keeps what was typed", async () => {
      server.use(refuseUnverified());
      const { view } = await signInUnverified();

      const notice = await screen.findByRole('alert');
      expect(notice).toHaveTextContent('Please confirm your e-mail first');
      expect(notice).toHaveTextContent('ada@example.com');
      expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeEnabled();
      expect(screen.getByRole('link', { name: 'Use another address' })).toHaveAttribute('href', '/auth/sign-up');
      expect(screen.queryByText(/collection requirements/)).not.toBeInTheDocument();
      expect(screen.getByLabelText('Email')).toHaveValue('Ada@Example.com');
      expect(screen.getByLabelText('Password')).toHaveValue('correct-horse');
      expect(view.router.state.location.pathname).toBe('/auth/sign-in');
    });

    it('resends the verification e-mail to the address and says it was sent', async () => {
      let body: unknown;
      server.use(
        refuseUnverified(),
        http.post('*/api/collections/users/request-verification', async ({ request }) => {
          body = await request.json();
          return new HttpResponse(null, { status: 204 });
        }),
      );
      const { user } = await signInUnverified();
      await user.click(await screen.findByRole('button', { name: 'Resend the e-mail' }));
      expect(await screen.findByText('We sent the e-mail again to ada@example.com.')).toBeInTheDocument();
      expect(body).toEqual({ email: 'ada@example.com' });
      // the button rests for a while, and says so
      await waitFor(() => expect(screen.getByRole('button', { name: 'Resend the e-mail' })).toBeDisabled());
      expect(await screen.findByText(/You can ask for another e-mail in \d+ seconds\./)).toBeInTheDocument();
    });

    it("a refused resend (429) says to wait, not the server's words", async () => {
      server.use(
        refuseUnverified(),
        http.post('*/api/collections/users/request-verification', () =>
          HttpResponse.json({ status: 429, message: 'Too Many Requests.', data: {} }, { status: 429 }),
        ),
      );
      const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const { user } = await signInUnverified();
      await user.click(await screen.findByRole('button', { name: 'Resend the e-mail' }));
      expect(
        await screen.findByText('Too many attempts in a short time. Wait a few minutes, then try again.'),
      ).toBeInTheDocument();
      expect(screen.queryByText(/Too Many Requests/)).not.toBeInTheDocument();
      expect(error).toHaveBeenCalled();
      error.mockRestore();
    });

    it('goes away when a later sign-in is refused for another reason', async () => {
      server.use(refuseUnverified());
      const { user } = await signInUnverified();
      await screen.findByRole('alert');
      server.use(
        http.post('*/api/collections/users/auth-with-password', () =>
          HttpResponse.json({ status: 400, message: 'Failed to authenticate.', data: {} }, { status: 400 }),
        ),
      );
      await fillFields(user, { Password: 'wrong' });
      await user.click(submit());
      expect(await screen.findByText('The e-mail or password is not right. Check them and try again.')).toBeInTheDocument();
      expect(screen.queryByText('Please confirm your e-mail first')).not.toBeInTheDocument();
    });
  });

  it('links to reset-password and sign-up', async () => {
    renderRoute('/auth/sign-in');
    expect(await screen.findByRole('link', { name: 'Forgot your password?' })).toHaveAttribute(
      'href',
      '/auth/reset-password',
    );
    expect(screen.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/auth/sign-up');
  });
});
