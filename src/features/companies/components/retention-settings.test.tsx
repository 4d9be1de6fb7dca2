import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/msw-server';
import { renderWithProviders } from '@/testing/render-route';

import type { RetentionPreview } from '../api/retention';

import { RetentionSettings } from './retention-settings';

const preview = (body: RetentionPreview) => server.use(http.get('*/api/screenroom/companies/c1/retention', () => HttpResponse.json(body)));

describe('data retention on the company edit screen (issue 19)', () => {
  it('says when the next run is, how many it deletes, and who first, with their job and why', async () => {
    preview({
      retentionMonths: 6,
      nextRunAt: '2026-11-25 03:30:00.000Z',
      count: 3,
      candidates: [
        { id: 'k1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', jobId: 'j1', jobTitle: 'Support engineer', reason: 'job_closed', since: '2026-04-02 10:00:00.000Z' },
        { id: 'k2', firstName: '', lastName: '', email: 'grace@example.com', jobId: 'j2', jobTitle: 'Designer', reason: 'inactive', since: '2026-05-01 10:00:00.000Z' },
      ],
    });
    renderWithProviders(<RetentionSettings companyId="c1" retentionMonths={6} />);

    expect(screen.getByRole('combobox', { name: 'Keep candidates for' })).toHaveValue('6');
    const shown = await screen.findByTestId('retention-preview');
    expect(shown).toHaveTextContent(/^Next run: Nov 25, 2026, .*; 3 candidates will be deleted then\./);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Ada Lovelace (ada@example.com), Support engineer: job closed on Apr 2, 2026',
      'grace@example.com, Designer: no activity since May 1, 2026',
    ]);
    expect(shown).toHaveTextContent('and 1 more');
  });

  it('says that candidates are kept without a period, and saves the chosen one', async () => {
    preview({ retentionMonths: 0, nextRunAt: '', count: 0, candidates: [] });
    const saved: unknown[] = [];
    server.use(
      http.patch('*/api/collections/companies/records/c1', async ({ request }) => {
        saved.push(await request.json());
        return HttpResponse.json({ id: 'c1', collectionName: 'companies', retentionMonths: 12 });
      }),
    );
    const user = userEvent.setup();
    renderWithProviders(<RetentionSettings companyId="c1" retentionMonths={0} />);

    expect(screen.getByText('Candidates are kept until you delete them.')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Save retention' });
    expect(save).toBeDisabled();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Keep candidates for' }), '1 year');
    await user.click(save);
    await expect.poll(() => saved).toEqual([{ retentionMonths: 12 }]);
  });

  it('says when nothing is due and no run is scheduled', async () => {
    preview({ retentionMonths: 12, nextRunAt: '', count: 0, candidates: [] });
    renderWithProviders(<RetentionSettings companyId="c1" retentionMonths={12} />);
    expect(await screen.findByTestId('retention-preview')).toHaveTextContent('No run is scheduled; no candidate is due for deletion.');
  });
});
