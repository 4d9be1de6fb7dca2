import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const api = (path: string) => `${env.apiUrl}${path}`;

function company() {
  return {
    id: 'c1',
    collectionId: 'companies',
    collectionName: 'companies',
    name: 'Acme',
    website: 'https://acme.example.com',
    logo: 'logo.png',
    managers: ['u1'],
    created: '2024-05-01 10:00:00.000Z',
    updated: '2024-05-01 10:00:00.000Z',
    expand: {
      managers: [{ id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', created: '2024-05-01 10:00:00.000Z' }],
    },
  };
}

describe('Team members', () => {
  it('lists the managers and invites by e-mail, showing the server refusal under the field', async () => {
    signInAs({ primaryCompany: 'c1' });
    const invites: { id: string; email: string; company: string; created: string }[] = [];
    server.use(
      http.get(api('/api/collections/companies/records/c1'), () => HttpResponse.json(company())),
      http.get(api('/api/collections/companies/records'), () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 1, totalPages: 1, items: [company()] })),
      http.get(api('/api/collections/manager_invites/records'), () =>
        HttpResponse.json({ page: 1, perPage: 500, totalItems: invites.length, totalPages: 1, items: invites }),
      ),
      http.post(api('/api/collections/manager_invites/records'), async ({ request }) => {
        const body = (await request.json()) as { email: string; company: string };
        if (body.email === 'ada@example.com') {
          return HttpResponse.json(
            {
              status: 400,
              message: 'This person is already a manager of this company.',
              data: { email: { code: 'validation_already_manager', message: 'This person is already a manager of this company.' } },
            },
            { status: 400 },
          );
        }
        const created = { id: 'i1', ...body, created: '2024-05-02 10:00:00.000Z' };
        invites.push(created);
        return HttpResponse.json(created);
      }),
    );
    renderRoute('/companies/c1/team');
    const user = userEvent.setup();

    const managers = await screen.findByRole('region', { name: 'Managers' });
    expect(managers).toHaveTextContent('ada@example.com');

    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByText('This person is already a manager of this company')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');

    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'Bob@Example.com');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    const pending = await screen.findByRole('region', { name: 'Pending invites' });
    expect(pending).toHaveTextContent('bob@example.com');
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue(''));
  });
});
