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

describe('Removing a member (issue 16)', () => {
  const ada = { id: 'u1', collectionId: '_pb_users_auth_', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', avatar: 'ada.png', created: '2024-05-01 10:00:00.000Z' };
  const bob = { id: 'u2', collectionId: '_pb_users_auth_', email: 'bob@example.com', firstName: 'Bob', lastName: 'Builder', avatar: '', created: '2024-05-02 10:00:00.000Z' };

  /** A company owned by Ada with Bob as co-manager; a PATCH removing a manager is applied and recorded. */
  function serveTeam(refuse?: { status: number; message: string }) {
    let members = [ada, bob];
    const patches: unknown[] = [];
    const current = () => company({ managers: members.map((m) => m.id), owner: 'u1', expand: { managers: members } });
    server.use(
      http.get(api('/api/collections/companies/records/c1'), () => HttpResponse.json(current())),
      http.get(api('/api/collections/companies/records'), () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 1, totalPages: 1, items: [current()] })),
      http.get(api('/api/collections/manager_invites/records'), () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 0, totalPages: 1, items: [] })),
      http.patch(api('/api/collections/companies/records/c1'), async ({ request }) => {
        const body = (await request.json()) as Record<string, string>;
        patches.push(body);
        if (refuse) return HttpResponse.json({ status: refuse.status, message: refuse.message, data: {} }, { status: refuse.status });
        members = members.filter((m) => m.id !== body['managers-']);
        return HttpResponse.json(current());
      }),
    );
    return patches;
  }

  it('shows names and avatars, and the owner removes a member after a confirmation that says what it does', async () => {
    signInAs({ id: 'u1', email: 'ada@example.com', primaryCompany: 'c1' });
    const patches = serveTeam();
    renderRoute('/companies/c1/team');
    const user = userEvent.setup();

    const managers = await screen.findByRole('region', { name: 'Managers' });
    expect(await within(managers).findByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(managers).getByText('Bob Builder')).toBeInTheDocument();
    // Ada's stored avatar (a thumbnail), Bob's initials
    expect(await within(managers).findByText('BB')).toBeInTheDocument();
    // nobody removes the owner: no action on Ada's row
    expect(within(managers).queryByRole('button', { name: 'Remove Ada Lovelace' })).not.toBeInTheDocument();

    await user.click(within(managers).getByRole('button', { name: 'Remove Bob Builder' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove Bob Builder from the team?' });
    expect(dialog).toHaveTextContent('Bob Builder (bob@example.com) stops being a manager of Acme at once');
    // cancelling removes nobody
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(patches).toEqual([]);

    await user.click(within(managers).getByRole('button', { name: 'Remove Bob Builder' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove member' }));
    expect(await screen.findByText('Bob Builder was removed from Acme')).toBeInTheDocument();
    await waitFor(() => expect(within(managers).queryByText('Bob Builder')).not.toBeInTheDocument());
    expect(patches).toEqual([{ 'managers-': 'u2' }]);
  });

  it("shows a member who is not the owner no 'Remove' at all", async () => {
    signInAs({ id: 'u2', email: 'bob@example.com', primaryCompany: 'c1' });
    serveTeam();
    renderRoute('/companies/c1/team');
    const managers = await screen.findByRole('region', { name: 'Managers' });
    expect(await within(managers).findByText('Bob Builder')).toBeInTheDocument();
    expect(within(managers).getByText('Owner')).toBeInTheDocument();
    expect(within(managers).queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
  });

  it("shows the server's refusal in the user's words and keeps the member", async () => {
    signInAs({ id: 'u1', email: 'ada@example.com', primaryCompany: 'c1' });
    serveTeam({ status: 400, message: 'Only the owner of the company can remove other managers; you can remove only yourself.' });
    renderRoute('/companies/c1/team');
    const user = userEvent.setup();
    const managers = await screen.findByRole('region', { name: 'Managers' });
    await user.click(await within(managers).findByRole('button', { name: 'Remove Bob Builder' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove member' }));
    expect(
      await screen.findByText('Only the owner of the company can remove other managers; you can remove only yourself'),
    ).toBeInTheDocument();
    expect(within(managers).getByText('Bob Builder')).toBeInTheDocument();
  });
});
