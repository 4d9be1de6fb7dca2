import { fireEvent, screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { pb } from '@/lib/pocketbase';
import type { ShareLinksResponse } from '@/lib/pocketbase-types';
import { buildCompany, fullList, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderWithProviders } from '@/testing/render-route';
import { buildUser, signInAs } from '@/testing/session';

import type { ShareLink } from '../api/share-link-queries';

import { ShareCandidateButton } from './share-candidate-button';

const DAY = 24 * 60 * 60 * 1000;
const dbDate = (ms: number) => new Date(ms).toISOString().replace('T', ' ');

function link(id: string, fields: Partial<ShareLinksResponse> = {}, creator = buildUser()): ShareLink {
  return {
    id,
    collectionId: 'share_links_id',
    collectionName: 'share_links',
    candidate: 'k1',
    createdBy: creator.id,
    expiresAt: dbDate(Date.now() + 14 * DAY),
    revokedAt: '',
    revokedBy: '',
    includeFeedback: false,
    lastOpenedAt: '',
    created: '2026-03-04 10:20:30.000Z',
    updated: '2026-03-04 10:20:30.000Z',
    ...fields,
    expand: { createdBy: creator },
  } as ShareLink;
}

let links: ShareLink[] = [];
let created: unknown[] = [];
let revoked: string[] = [];
let listFilters: string[] = [];

beforeEach(() => {
  signInAs({ primaryCompany: 'c1' });
  // c1, owned by the signed-in user: they may revoke any of its links
  managerShellApi();
  links = [];
  created = [];
  revoked = [];
  listFilters = [];
  server.use(
    http.get(pb.buildURL('/api/collections/share_links/records'), ({ request }) => {
      listFilters.push(new URL(request.url).searchParams.get('filter') ?? '');
      return HttpResponse.json(fullList(links));
    }),
    http.post(pb.buildURL('/api/screenroom/share-links'), async ({ request }) => {
      const body = (await request.json()) as { candidate: string; expiresInDays: number; includeFeedback: boolean };
      created.push(body);
      const made = link(`l${created.length}`, { expiresAt: dbDate(Date.now() + body.expiresInDays * DAY), includeFeedback: body.includeFeedback, created: dbDate(Date.now()) });
      links = [made, ...links];
      return HttpResponse.json({ link: { ...made, expand: {} }, token: 'T'.repeat(43), url: `https://app.example.com/shared/${'T'.repeat(43)}` });
    }),
    http.post(pb.buildURL('/api/screenroom/share-links/:id/revoke'), ({ params }) => {
      const id = String(params.id);
      revoked.push(id);
      links = links.map((l) => (l.id === id ? { ...l, revokedAt: dbDate(Date.now()), revokedBy: 'u1' } : l));
      return HttpResponse.json({ ...links.find((l) => l.id === id), expand: {} });
    }),
  );
});

afterEach(() => {
  vi.restoreAllMocks();
});

async function openDialog() {
  renderWithProviders(<ShareCandidateButton companyId="c1" candidateId="k1" candidateEmail="grace@example.com" />);
  fireEvent.click(screen.getByRole('button', { name: 'Share' }));
  return screen.findByRole('dialog', { name: 'Share this candidate' });
}

describe('the Share dialog', () => {
  it('makes a 14-day link without feedback by default, shows its URL once, and lists it', async () => {
    const dialog = await openDialog();
    expect(within(dialog).getByText(/grace@example\.com/)).toBeInTheDocument();
    expect(await within(dialog).findByText('No links yet')).toBeInTheDocument();
    expect(listFilters[0]).toBe('candidate = "k1"');
    expect(within(dialog).getByLabelText<HTMLSelectElement>('Expires after').value).toBe('14');
    expect(within(dialog).getByRole('option', { name: '14 days' })).toHaveProperty('selected', true);
    expect(within(dialog).getAllByRole('option').map((o) => o.textContent)).toEqual(['1 day', '7 days', '14 days', '30 days']);
    expect(within(dialog).getByRole('checkbox', { name: 'Include ratings and comments' })).not.toBeChecked();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));

    const url = await within(dialog).findByLabelText<HTMLInputElement>('Share link');
    expect(url.value).toBe(`https://app.example.com/shared/${'T'.repeat(43)}`);
    expect(created).toEqual([{ candidate: 'k1', expiresInDays: 14, includeFeedback: false }]);
    const table = await within(dialog).findByRole('table', { name: 'Share links' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('Ada Lovelace');
    expect(row).toHaveTextContent('Never');
    expect(row).toHaveTextContent('Active');

    // copied to the clipboard
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Copy link' }));
    await vi.waitFor(() => expect(writeText).toHaveBeenCalledWith(url.value));
    expect(await screen.findByText('Link copied')).toBeInTheDocument();

    // shown once: closed and opened again, the dialog no longer has it
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    const again = await screen.findByRole('dialog', { name: 'Share this candidate' });
    expect(await within(again).findByRole('table', { name: 'Share links' })).toBeInTheDocument();
    expect(within(again).queryByLabelText('Share link')).not.toBeInTheDocument();
  });

  it('sends the expiry and the feedback choice the manager picked', async () => {
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('Expires after'), { target: { value: '30' } });
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Include ratings and comments' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    await within(dialog).findByLabelText('Share link');
    expect(created).toEqual([{ candidate: 'k1', expiresInDays: 30, includeFeedback: true }]);
  });

  it("lists each link's creator, dates and status, and revokes an active one once confirmed", async () => {
    links = [
      link('l3', { lastOpenedAt: '2026-03-06 08:00:00.000Z' }, buildUser({ id: 'u2', firstName: 'Carla', lastName: 'Colleague' })),
      link('l2', { expiresAt: '2026-03-05 10:20:30.000Z' }),
      link('l1', { revokedAt: '2026-03-04 11:00:00.000Z', revokedBy: 'u1' }),
    ];
    delete (links[2]!.expand as { createdBy?: unknown }).createdBy;
    const dialog = await openDialog();
    const table = await within(dialog).findByRole('table', { name: 'Share links' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Created by', 'Created on', 'Expires', 'Last opened', 'Status', 'Actions']);
    const [, active, expired, revokedRow] = within(table).getAllByRole('row');
    expect(active).toHaveTextContent('Carla Colleague');
    expect(active).toHaveTextContent('Mar 6, 2026');
    expect(active).toHaveTextContent('Active');
    expect(expired).toHaveTextContent('Ada Lovelace');
    expect(expired).toHaveTextContent('Mar 5, 2026');
    expect(expired).toHaveTextContent('Never');
    expect(expired).toHaveTextContent('Expired');
    expect(revokedRow).toHaveTextContent('A former manager');
    expect(revokedRow).toHaveTextContent('Revoked');
    // only an active link can be revoked
    expect(within(expired!).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(within(revokedRow!).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();

    fireEvent.click(within(active!).getByRole('button', { name: /Revoke/ }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke this link?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(revoked).toEqual([]);

    fireEvent.click(within(active!).getByRole('button', { name: /Revoke/ }));
    fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'Revoke this link?' })).getByRole('button', { name: 'Revoke link' }));
    await vi.waitFor(() => expect(revoked).toEqual(['l3']));
    await vi.waitFor(() => expect(within(within(table).getAllByRole('row')[1]!).getByText('Revoked')).toBeInTheDocument());
    expect(await screen.findByText('Link revoked')).toBeInTheDocument();
  });

  it("offers a co-manager 'Revoke' on their own active links only (the owner revokes the others)", async () => {
    managerShellApi({ companies: [buildCompany({ owner: 'u9', managers: ['u9', 'u1', 'u2'] })] });
    links = [link('l2', {}, buildUser({ id: 'u2', firstName: 'Carla', lastName: 'Colleague' })), link('l1')];
    const dialog = await openDialog();
    const table = await within(dialog).findByRole('table', { name: 'Share links' });
    const [, carlas, own] = within(table).getAllByRole('row');
    expect(carlas).toHaveTextContent('Active');
    expect(within(carlas!).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(within(own!).getByRole('button', { name: /Revoke/ })).toBeInTheDocument();
  });

  it("says something went wrong in the product's words when the link cannot be made", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.post(pb.buildURL('/api/screenroom/share-links'), () =>
        HttpResponse.json({ status: 400, message: 'Something about expiresInDays.', data: {} }, { status: 400 }),
      ),
    );
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Something went wrong while processing your request.');
    expect(within(dialog).queryByText(/expiresInDays/)).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Share link')).not.toBeInTheDocument();
  });
});
