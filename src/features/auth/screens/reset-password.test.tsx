import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';

import { fillFields } from '@/testing/form';

async function openReset() {
  const user = userEvent.setup();
  const view = renderRoute('/auth/reset-password');
  await screen.findByRole('heading', { name: 'Reset Password' });
  return { user, view };
}

describe('reset password', () => {
  it.each(['', 'ada', 'ada@example', 'ada@@example.com'])('rejects %j', async (email) => {
    const { user } = await openReset();
    await fillFields(user, { Email: email });
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Please enter a valid email')).toBeInTheDocument();
  });

  it('requests the link, goes to sign-in and says it was sent', async () => {
    let body: unknown;
    server.use(
      http.post('*/api/collections/users/request-password-reset', async ({ request }) => {
        body = await request.json();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user, view } = await openReset();
    await fillFields(user, { Email: 'Ada@Example.com' });
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(await screen.findByText('Password reset link sent to your email')).toBeInTheDocument();
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/sign-in'));
    expect(body).toEqual({ email: 'ada@example.com' });
  });

  it('offers sign-in beside an "or"', async () => {
    await openReset();
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/auth/sign-in');
  });
});
