import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { buildCompany, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const api = (path: string) => `${env.apiUrl}${path}`;

/** The settings screen's reads: the company (with its e-mail settings) and the retention preview. */
function serve(overrides: Parameters<typeof buildCompany>[0] = {}) {
  const company = buildCompany(overrides);
  managerShellApi({ companies: [company] });
  const saved: Record<string, unknown>[] = [];
  server.use(
    http.get(api('/api/collections/companies/records/c1'), () => HttpResponse.json(company)),
    http.get(api('/api/screenroom/companies/c1/retention'), () => HttpResponse.json({ retentionMonths: 0, nextRunAt: '', count: 0, candidates: [] })),
  );
  return { company, saved };
}

describe("the company settings' e-mail settings", () => {
  it('shows the stored time zone and footer choice, and saves the changed ones with the company', async () => {
    signInAs({ primaryCompany: 'c1' });
    const { company, saved } = serve({ timeZone: 'Europe/Lisbon', mailFooterOff: false });
    server.use(
      http.patch(api('/api/collections/companies/records/c1'), async ({ request }) => {
        const body = (await request.json()) as Record<string, unknown>;
        saved.push(body);
        return HttpResponse.json({ ...company, ...body });
      }),
    );
    renderRoute('/companies/c1/edit');
    const user = userEvent.setup();

    const select = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(select).toHaveValue('Europe/Lisbon');
    const footer = screen.getByRole('checkbox', { name: 'Leave the Screenroom line out of e-mails' });
    expect(footer).not.toBeChecked();
    await user.selectOptions(select, 'America/Sao_Paulo');
    await user.click(footer);
    await user.click(screen.getByRole('button', { name: 'Update Company' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({ name: 'Acme', website: 'https://acme.example.com', privacyUrl: '', timeZone: 'America/Sao_Paulo', mailFooterOff: true });
  });

  it("puts the server's refusal of the time zone under the select and keeps the page as it was", async () => {
    signInAs({ primaryCompany: 'c1' });
    serve();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.use(
      http.patch(api('/api/collections/companies/records/c1'), () =>
        HttpResponse.json(
          { status: 400, message: 'Choose a time zone from the list.', data: { timeZone: { code: 'validation_time_zone', message: 'Choose a time zone from the list.' } } },
          { status: 400 },
        ),
      ),
    );
    renderRoute('/companies/c1/edit');
    const user = userEvent.setup();
    const select = await screen.findByRole('combobox', { name: 'Time zone' });
    expect(select).toHaveValue('');
    await user.selectOptions(select, 'Asia/Tokyo');
    await user.click(screen.getByRole('button', { name: 'Update Company' }));
    expect(await screen.findByText('Choose a time zone from the list.')).toBeInTheDocument();
    expect(select).toHaveAttribute('aria-invalid', 'true');
    expect(select).toHaveValue('Asia/Tokyo');
    expect(screen.getByRole('heading', { level: 1, name: 'General' })).toBeInTheDocument();
  });
});
