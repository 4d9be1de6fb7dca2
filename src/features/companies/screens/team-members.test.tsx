import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const api = (path: string) => `${env.apiUrl}${path}`;

function company(overrides: Record<string, unknown> = {}) {
  return {
    id: 'c1',
    collectionId: 'companies',
    collectionName: 'companies',
    name: 'Acme',
    website: 'https://acme.example.com',
    logo: 'logo.png',
    managers: ['u1'],
    owner: 'u1',
    created: '2024-05-01 10:00:00.000Z',
    updated: '2024-05-01 10:00:00.000Z',
    expand: {
      managers: [{ id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', created: '2024-05-01 10:00:00.000Z' }],
    },
    ...overrides,
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

  it("marks the company's owner", async () => {
    signInAs({ id: 'u2', email: 'bob@example.com', primaryCompany: 'c1' });
    const teamOfTwo = company({
      managers: ['u1', 'u2'],
      owner: 'u1',
      expand: {
        managers: [
          { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', created: '2024-05-01 10:00:00.000Z' },
          { id: 'u2', email: 'bob@example.com', firstName: 'Bob', lastName: 'Builder', created: '2024-05-02 10:00:00.000Z' },
        ],
      },
    });
    server.use(
      http.get(api('/api/collections/companies/records/c1'), () => HttpResponse.json(teamOfTwo)),
      http.get(api('/api/collections/companies/records'), () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 1, totalPages: 1, items: [teamOfTwo] })),
      http.get(api('/api/collections/manager_invites/records'), () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 0, totalPages: 1, items: [] })),
    );
    renderRoute('/companies/c1/team');

    const managers = await screen.findByRole('region', { name: 'Managers' });
    const rows = await within(managers).findAllByRole('row');
    const ada = rows.find((row) => row.textContent?.includes('ada@example.com'));
    const bob = rows.find((row) => row.textContent?.includes('bob@example.com'));
    expect(within(ada!).getByText('Owner')).toBeInTheDocument();
    expect(within(bob!).queryByText('Owner')).not.toBeInTheDocument();
    expect(within(managers).getAllByText('Owner')).toHaveLength(1);
  });
});
