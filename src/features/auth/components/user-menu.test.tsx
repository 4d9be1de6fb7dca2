import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';

import { pb } from '@/lib/pocketbase';
import { buildCompany, fullList, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const COMPANIES = [
  buildCompany({ id: 'c1', name: 'Alpha Hiring', website: 'https://alpha.example.com' }),
  buildCompany({ id: 'c2', name: 'Beta Talent', website: 'https://beta.example.com' }),
];

describe('shell', () => {
  beforeEach(() => {
    managerShellApi({ companies: COMPANIES });
    // The screen behind the menu, /companies/c2/questions: c2 has no questions yet.
    server.use(http.get('*/api/screenroom/companies/:companyId/questions', () => HttpResponse.json(fullList([]))));
  });

  async function openMenu(path: string) {
    const user = userEvent.setup();
    const view = renderRoute(path);
    await user.click(await screen.findByRole('button', { name: /Grace Hopper/ }));
    await screen.findByRole('menu');
    return { user, view };
  }

  it("offers 'Manage company' for the company in the route", async () => {
    signInAs({ primaryCompany: 'c1', firstName: 'Grace', lastName: 'Hopper' });
    await openMenu('/companies/c2/questions');
    expect(screen.getByRole('menuitem', { name: 'Preferences' })).toHaveAttribute('href', '/preferences/profile');
    expect(screen.getByRole('menuitem', { name: 'Manage company' })).toHaveAttribute('href', '/companies/c2/edit');
  });

  it("has no 'Manage company' without a company in the route", async () => {
    signInAs({ primaryCompany: 'c1', firstName: 'Grace', lastName: 'Hopper' });
    await openMenu('/preferences/profile');
    expect(screen.getByRole('menuitem', { name: 'Preferences' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Manage company' })).not.toBeInTheDocument();
  });

  it('logs out: the stored session is cleared and sign-in shows', async () => {
    signInAs({ primaryCompany: '', firstName: 'Grace', lastName: 'Hopper' });
    const { user, view } = await openMenu('/preferences/profile');
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/auth/sign-in'));
    expect(pb.authStore.token).toBe('');
    expect(window.localStorage.getItem('pocketbase_auth')).toBeNull();
  });

  it('shows the company switcher only with a primary company, on the route company with its links', async () => {
    signInAs({ primaryCompany: 'c1', firstName: 'Grace', lastName: 'Hopper' });
    renderRoute('/companies/c2/questions');
    const bar = await screen.findByRole('navigation', { name: 'Company' });
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Company' })).toHaveTextContent('Beta Talent'));
    expect(bar.querySelector('a[href="/companies/c2"]')).toHaveTextContent('Jobs');
    expect(bar.querySelector('a[href="/companies/c2/questions"]')).toHaveTextContent('Questions');
  });

  it('has no company switcher without a primary company', async () => {
    signInAs({ primaryCompany: '', firstName: 'Grace', lastName: 'Hopper' });
    renderRoute('/preferences/profile');
    await screen.findByRole('heading', { level: 1, name: 'Profile' });
    expect(screen.queryByRole('navigation', { name: 'Company' })).not.toBeInTheDocument();
  });
});
