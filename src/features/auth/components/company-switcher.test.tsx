import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const api = (path: string) => `${env.apiUrl}${path}`;

const acme = {
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
  expand: { managers: [{ id: 'u1', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', created: '2024-05-01 10:00:00.000Z' }] },
};

describe('Company switcher', () => {
  // jsdom lays nothing out: Radix's select scrolls its chosen item into view and captures the pointer
  beforeAll(() => {
    const proto = Element.prototype as Partial<Element>;
    if (!('scrollIntoView' in Element.prototype)) proto.scrollIntoView = () => {};
    if (!('hasPointerCapture' in Element.prototype)) proto.hasPointerCapture = () => false;
    if (!('releasePointerCapture' in Element.prototype)) proto.releasePointerCapture = () => {};
  });

  it("offers 'New company', which opens the create-company screen", async () => {
    signInAs({ id: 'u1', primaryCompany: 'c1' });
    server.use(
      http.get(api('/api/collections/companies/records/c1'), () => HttpResponse.json(acme)),
      http.get(api('/api/collections/companies/records'), () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 1, totalPages: 1, items: [acme] })),
      http.get(api('/api/collections/manager_invites/records'), () => HttpResponse.json({ page: 1, perPage: 500, totalItems: 0, totalPages: 1, items: [] })),
    );
    renderRoute('/companies/c1/team');
    const user = userEvent.setup();

    const nav = await screen.findByRole('navigation', { name: 'Company' });
    const switcher = await within(nav).findByRole('combobox', { name: 'Company' });
    // the companies are loaded (the current one is shown) before it is opened: a slow machine may render the switcher
    // before its list arrives, and the list re-rendering under an open menu closes it
    await waitFor(() => expect(switcher).toHaveTextContent('Acme'));
    await user.click(switcher);
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).getAllByRole('option').map((o) => o.textContent)).toEqual(['Acme', 'New company']);
    await user.click(within(listbox).getByRole('option', { name: 'New company' }));

    expect(await screen.findByRole('heading', { name: 'Create company' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Company' })).toBeInTheDocument();
  });
});
