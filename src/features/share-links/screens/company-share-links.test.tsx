import { fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { buildCompany, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import type { CompanyShareLink } from '../api/share-link-queries';

const ADA = { id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' };
const CARLA = { id: 'u2', email: 'carla@example.com', firstName: 'Carla', lastName: 'Colleague' };

function link(id: string, fields: Partial<CompanyShareLink> = {}): CompanyShareLink {
  return {
    id,
    created: '2026-03-04 10:20:30.000Z',
    expiresAt: '2099-04-03 10:20:30.000Z',
    includeFeedback: false,
    lastOpenedAt: '',
    candidate: { id: 'k1', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' },
    job: { id: 'j1', title: 'Backend engineer' },
    createdBy: ADA,
    ...fields,
  };
}

let links: CompanyShareLink[] = [];
let revoked: string[] = [];
let listPaths: string[] = [];

beforeEach(() => {
  links = [];
  revoked = [];
  listPaths = [];
  server.use(
    http.get(pb.buildURL('/api/screenroom/companies/:companyId/share-links'), ({ request }) => {
      listPaths.push(new URL(request.url).pathname);
      return HttpResponse.json({ items: links });
    }),
    http.post(pb.buildURL('/api/screenroom/share-links/:id/revoke'), ({ params }) => {
      const id = String(params.id);
      revoked.push(id);
      // the server's list holds live links only: a revoked one is gone from it
      links = links.filter((l) => l.id !== id);
      return HttpResponse.json({ id, revokedAt: '2026-03-05 09:00:00.000Z', revokedBy: 'u1' });
    }),
  );
});

describe("the company's share links (company settings)", () => {
  it("shows the owner every live link, whoever made it, and revokes another manager's once confirmed", async () => {
    links = [
      link('l2', {
        createdBy: CARLA,
        includeFeedback: true,
        created: '2026-03-06 08:00:00.000Z',
        expiresAt: '2099-04-05 08:00:00.000Z',
        candidate: { id: 'k2', email: 'alan@example.com', firstName: '', lastName: '' },
        job: { id: 'j2', title: 'Designer' },
      }),
      link('l1'),
    ];
    signInAs({ primaryCompany: 'c1' });
    managerShellApi(); // c1, owned by u1 (the signed-in user)
    renderRoute('/companies/c1/share-links');

    const table = await screen.findByRole('table', { name: 'Live share links' });
    expect(listPaths).toEqual(['/api/screenroom/companies/c1/share-links']);
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Candidate',
      'Job',
      'Created by',
      'Created',
      'Expires',
      'Ratings and comments',
      'Actions',
    ]);
    const [, carlas, adas] = within(table).getAllByRole('row');
    // a candidate without a name is named by their e-mail, and links to their review
    expect(within(carlas!).getByRole('link', { name: 'alan@example.com' })).toHaveAttribute('href', '/companies/c1/jobs/j2/candidates/k2');
    expect(carlas).toHaveTextContent('Designer');
    expect(carlas).toHaveTextContent('Carla Colleague');
    expect(carlas).toHaveTextContent('Mar 6, 2026');
    expect(carlas).toHaveTextContent('Apr 5, 2099');
    expect(carlas).toHaveTextContent('Included');
    expect(within(adas!).getByRole('link', { name: 'Grace Hopper' })).toBeInTheDocument();
    expect(adas).toHaveTextContent('Backend engineer');
    expect(adas).toHaveTextContent('Ada Lovelace');
    expect(adas).toHaveTextContent('Not included');
    // reached from the company settings' side links
    expect(screen.getByRole('navigation', { name: 'Company settings' })).toHaveTextContent('Share links');

    // the owner revokes a link another manager made
    const revoke = within(carlas!).getByRole('button', { name: /^Revoke the link to alan@example\.com created on Mar 6, 2026/ });
    fireEvent.click(revoke);
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'Revoke this link?' })).getByRole('button', { name: 'Cancel' }));
    expect(revoked).toEqual([]);
    fireEvent.click(revoke);
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'Revoke this link?' })).getByRole('button', { name: 'Revoke link' }));
    await vi.waitFor(() => expect(revoked).toEqual(['l2']));
    expect(await screen.findByText('Link revoked')).toBeInTheDocument();
    await vi.waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).queryByText('Carla Colleague')).not.toBeInTheDocument();
    expect(within(table).getByText('Grace Hopper')).toBeInTheDocument();
  });

  it('shows a co-manager every live link too, with Revoke on their own links only', async () => {
    links = [link('l2', { createdBy: CARLA }), link('l1')];
    signInAs({ primaryCompany: 'c1' });
    managerShellApi({ companies: [buildCompany({ owner: 'u9', managers: ['u9', 'u1', 'u2'] })] });
    renderRoute('/companies/c1/share-links');

    const table = await screen.findByRole('table', { name: 'Live share links' });
    const [, carlas, adas] = within(table).getAllByRole('row');
    expect(carlas).toHaveTextContent('Carla Colleague');
    expect(within(carlas!).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(within(adas!).getByRole('button', { name: /Revoke/ })).toBeInTheDocument();
  });

  it('says so when no link is open', async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/share-links');
    expect(await screen.findByText('No share links are open.')).toBeInTheDocument();
  });
});
