import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { fillFields } from '@/testing/form';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

async function openEmail() {
  signInAs({ primaryCompany: '' });
  const user = userEvent.setup();
  renderRoute('/preferences/email');
  await screen.findByRole('heading', { level: 1, name: 'Update Email' });
  return user;
}

describe('update email', () => {
  it('shows its subtitle', async () => {
    await openEmail();
    expect(screen.getByText('Update your Email')).toBeInTheDocument();
  });

  it.each(['', 'grace', 'grace@', 'grace@example'])('rejects %j', async (email) => {
    const user = await openEmail();
    await fillFields(user, { 'New email': email });
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();
  });

  it('requests the change for the trimmed, lower-cased address and says where the link went', async () => {
    let body: unknown;
    server.use(
      http.post('*/api/collections/users/request-email-change', async ({ request }) => {
        body = await request.json();
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const user = await openEmail();
    await fillFields(user, { 'New email': ' Grace@Example.com ' });
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('We sent a link to grace@example.com to confirm your new email')).toBeInTheDocument();
    expect(body).toEqual({ newEmail: 'grace@example.com' });
  });

  it("puts the server's field error under the field and keeps what was typed", async () => {
    server.use(
      http.post('*/api/collections/users/request-email-change', () =>
        HttpResponse.json(
          {
            status: 400,
            message: 'Failed to request email change.',
            data: { newEmail: { code: 'validation_invalid_new_email', message: 'Invalid new email address.' } },
          },
          { status: 400 },
        ),
      ),
    );
    const user = await openEmail();
    await fillFields(user, { 'New email': 'taken@example.com' });
    await user.click(screen.getByRole('button', { name: 'Update Email' }));
    expect(await screen.findByText('This e-mail address is already used by another account. Use another address.')).toBeInTheDocument();
    expect(screen.queryByText(/Invalid new email/)).not.toBeInTheDocument();
    expect(screen.getByLabelText('New email')).toHaveValue('taken@example.com');
  });
});
