import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { buildCompany, fullList, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

describe("a company's pages", () => {
  it.each(['/companies/c2/jobs', '/companies/c2/questions', '/companies/c2/jobs/new', '/companies/unknown/team'])(
    "another company's URL, or one that does not exist (%s), says there is no access, with no 'Add Job'",
    async (path) => {
      signInAs({ primaryCompany: 'c1' });
      managerShellApi();
      renderRoute(path);
      expect(await screen.findByRole('heading', { name: "You don't have access to this company" })).toBeInTheDocument();
      expect(screen.queryByRole('link', { name: 'Add Job' })).not.toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Add Job' })).not.toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Go to your company' })).toHaveAttribute('href', '/companies/c1');
      expect(screen.getByRole('link', { name: 'Create a company' })).toHaveAttribute('href', '/companies/new');
    },
  );

  it('a user with no company is offered to create one', async () => {
    signInAs({ primaryCompany: '' });
    managerShellApi({ companies: [] });
    renderRoute('/companies/c2/jobs');
    expect(await screen.findByRole('heading', { name: "You don't have access to this company" })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to your company' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a company' })).toBeInTheDocument();
  });

  it("the user's own company shows its page", async () => {
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/jobs');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jobs' })).toBeInTheDocument();
    expect(screen.queryByText("You don't have access to this company")).not.toBeInTheDocument();
  });

  it('a company joined since the list was read: the list is read again before saying anything', async () => {
    signInAs({ primaryCompany: 'c1' });
    let reads = 0;
    managerShellApi();
    server.use(
      http.get('*/api/collections/companies/records', () => {
        reads += 1;
        const companies = reads === 1 ? [buildCompany()] : [buildCompany(), buildCompany({ id: 'c2', name: 'Beta' })];
        return HttpResponse.json(fullList(companies));
      }),
    );
    renderRoute('/companies/c2/jobs');
    expect(await screen.findByRole('heading', { level: 1, name: 'Jobs' })).toBeInTheDocument();
    expect(screen.queryByText("You don't have access to this company")).not.toBeInTheDocument();
  });
});
