import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { env } from '@/config/env';
import { csvBlobText } from '@/testing/blob';
import { buildCompany, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const api = (path: string) => `${env.apiUrl}${path}`;
const ada = { id: 'u1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
const grace = { id: 'u2', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' };

type Entry = Record<string, unknown>;

/** The company (with its managers) and its log as the server's filtered read answers; the queries it was asked. */
function auditApi(pages: (query: URLSearchParams) => { items: Entry[]; totalItems?: number; page?: number; totalPages?: number } | Response) {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(api('/api/collections/companies/records/c1'), () => HttpResponse.json({ ...buildCompany({ managers: ['u1', 'u2'] }), expand: { managers: [ada, grace] } })),
    http.get(api('/api/screenroom/companies/c1/audit-log'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const answer = pages(query);
      if (answer instanceof Response) return answer;
      const totalItems = answer.totalItems ?? answer.items.length;
      return HttpResponse.json({ page: answer.page ?? 1, perPage: 50, totalItems, totalPages: answer.totalPages ?? Math.ceil(totalItems / 50), items: answer.items });
    }),
  );
  return queries;
}

function rowsOf(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').slice(1).map((cell) => cell.textContent));
}

afterEach(() => vi.restoreAllMocks());

describe('the audit log', () => {
  it('names who acted by the kind the server recorded, and each action in plain words, newest first as the server reads them', async () => {
    auditApi(() => ({
      items: [
        { id: 'w1', company: 'c1', actor: '', actorKind: 'candidate', action: 'withdraw', candidateId: 'cand0000000000w', created: '2024-06-05 10:00:00.000Z' },
        { id: 'm1', company: 'c1', actor: 'u1', actorKind: 'manager', action: 'erase', candidateId: 'cand0000000000m', created: '2024-06-04 10:00:00.000Z', expand: { actor: ada } },
        // a manager whose account was deleted since, and one who left the company (their account is not ours to read)
        { id: 'm2', company: 'c1', actor: '', actorKind: 'manager', action: 'delete', candidateId: 'cand0000000000d', created: '2024-06-03 10:00:00.000Z' },
        { id: 'm3', company: 'c1', actor: 'u9', actorKind: 'manager', action: 'export', candidateId: 'cand0000000000x', created: '2024-06-03 09:00:00.000Z' },
        { id: 'r1', company: 'c1', actor: '', actorKind: 'retention', action: 'retention_erase', candidateId: 'cand0000000000r', created: '2024-06-02 10:00:00.000Z' },
        { id: 's1', company: 'c1', actor: '', actorKind: 'system', action: 'job_delete', candidateId: 'cand0000000000s', created: '2024-06-01 10:00:00.000Z' },
        // written before the kind was recorded: as before
        { id: 'o1', company: 'c1', actor: 'u1', actorKind: '', action: 'export', candidateId: 'cand0000000000o', created: '2024-05-31 10:00:00.000Z', expand: { actor: ada } },
        { id: 'o2', company: 'c1', actor: '', action: 'delete', candidateId: 'cand0000000000p', created: '2024-05-30 10:00:00.000Z' },
        { id: 'o3', company: 'c1', actor: '', action: 'retention_erase', candidateId: 'cand0000000000q', created: '2024-05-29 10:00:00.000Z' },
      ],
    }));
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/audit-log');

    const table = await screen.findByRole('table', { name: 'Audit log entries' });
    expect(rowsOf(table)).toEqual([
      ['The candidate (withdrew)', 'Withdrew and deleted their answers', 'cand0000000000w'],
      ['Ada Lovelace', 'Erased candidate', 'cand0000000000m'],
      ['A deleted account', 'Deleted candidate', 'cand0000000000d'],
      ['A former manager', 'Exported data', 'cand0000000000x'],
      ['Retention', 'Erased by retention', 'cand0000000000r'],
      ['System', 'Deleted with their job', 'cand0000000000s'],
      ['Ada Lovelace', 'Exported data', 'cand0000000000o'],
      ['An administrator or a deleted account', 'Deleted candidate', 'cand0000000000p'],
      ['Retention period', 'Erased by retention', 'cand0000000000q'],
    ]);
    expect(screen.getByRole('status')).toHaveTextContent('9 entries.');
    expect(screen.getByRole('navigation', { name: 'Company settings' })).toHaveTextContent('Audit log');
  });

  it('filters on the server by who acted, the action and days, keeps the filter in the address, and clears it', async () => {
    const queries = auditApi((query) =>
      query.get('actor') === 'u2'
        ? { items: [{ id: 'g1', company: 'c1', actor: 'u2', actorKind: 'manager', action: 'export', candidateId: 'cand000000000g1', created: '2024-06-04 10:00:00.000Z', expand: { actor: grace } }] }
        : { items: [] },
    );
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    const { router } = renderRoute('/companies/c1/audit-log');
    const user = userEvent.setup();

    expect(await screen.findByText('No exports, erasures or deletions yet.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Filter the audit log' });
    // the company's managers by name, then the kinds
    const who = within(form).getByLabelText('Who');
    await waitFor(() => expect(within(who).getAllByRole('option').map((o) => o.textContent)).toEqual(['Anyone', 'Ada Lovelace', 'Grace Hopper', 'Any manager', 'The candidate (withdrew)', 'Retention', 'System']));
    await user.selectOptions(who, 'Grace Hopper');
    await user.selectOptions(within(form).getByLabelText('Action'), 'Exported data');
    await user.type(within(form).getByLabelText('From'), '2024-06-01');
    await user.type(within(form).getByLabelText('To'), '2024-06-30');
    await user.click(within(form).getByRole('button', { name: 'Apply filter' }));

    const table = await screen.findByRole('table', { name: 'Audit log entries' });
    expect(rowsOf(table)).toEqual([['Grace Hopper', 'Exported data', 'cand000000000g1']]);
    expect(screen.getByRole('status')).toHaveTextContent('1 entry match this filter.');
    const last = queries.at(-1)!;
    expect(Object.fromEntries(last)).toEqual({ actor: 'u2', action: 'export', from: '2024-06-01', to: '2024-06-30', page: '1', perPage: '50' });
    expect(router.state.location.search).toBe('?actor=u2&action=export&from=2024-06-01&to=2024-06-30');

    await user.click(within(form).getByRole('button', { name: 'Clear' }));
    expect(await screen.findByText('No exports, erasures or deletions yet.')).toBeInTheDocument();
    expect(Object.fromEntries(queries.at(-1)!)).toEqual({ page: '1', perPage: '50' });
    expect(within(form).getByLabelText('Who')).toHaveValue('');
  });

  it('says on the field what is wrong before asking, and shows the server refusal there too', async () => {
    const queries = auditApi((query) =>
      query.get('from') === '1999-01-01'
        ? HttpResponse.json(
            { status: 400, message: 'Please check the filter.', data: { from: { code: 'validation_invalid_date', message: 'Enter a date as YYYY-MM-DD.' } } },
            { status: 400 },
          )
        : { items: [] },
    );
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/audit-log');
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Filter the audit log' });
    await screen.findByText('No exports, erasures or deletions yet.');

    await user.type(within(form).getByLabelText('From'), '2024-06-30');
    await user.type(within(form).getByLabelText('To'), '2024-06-01');
    await user.click(within(form).getByRole('button', { name: 'Apply filter' }));
    expect(await within(form).findByText('The last day must not be before the first.')).toBeInTheDocument();
    expect(within(form).getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(queries).toHaveLength(1);

    // a filter in the address that the server refuses: its words on the field
    await user.clear(within(form).getByLabelText('From'));
    await user.clear(within(form).getByLabelText('To'));
    await user.type(within(form).getByLabelText('From'), '1999-01-01');
    await user.click(within(form).getByRole('button', { name: 'Apply filter' }));
    expect(await within(form).findByText('Enter a date as YYYY-MM-DD.')).toBeInTheDocument();
  });

  it('pages through the matches', async () => {
    const entry = (n: number) => ({ id: `e${n}`, company: 'c1', actor: '', actorKind: 'system', action: 'delete', candidateId: `cand${String(n).padStart(11, '0')}`, created: '2024-06-01 10:00:00.000Z' });
    const queries = auditApi((query) => {
      const page = Number(query.get('page'));
      return { page, totalItems: 120, totalPages: 3, items: Array.from({ length: page < 3 ? 50 : 20 }, (_, i) => entry((page - 1) * 50 + i)) };
    });
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/audit-log');
    const user = userEvent.setup();

    expect(await screen.findByText('1–50 of 120 entries.')).toBeInTheDocument();
    const pages = screen.getByRole('navigation', { name: 'Pages of the audit log' });
    expect(within(pages).getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('51–100 of 120 entries.')).toBeInTheDocument();
    await user.click(within(pages).getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('101–120 of 120 entries.')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(within(pages).getByText('Page 3 of 3')).toBeInTheDocument();
    expect(queries.map((q) => q.get('page'))).toEqual(['1', '2', '3']);
  });

  it('downloads what the filter matches as the CSV the server writes, with its byte-order mark', async () => {
    auditApi(() => ({ items: [{ id: 'm1', company: 'c1', actor: 'u1', actorKind: 'manager', action: 'erase', candidateId: 'cand0000000000m', created: '2024-06-04 10:00:00.000Z', expand: { actor: ada } }] }));
    const asked: string[] = [];
    server.use(
      http.get(api('/api/screenroom/companies/c1/audit-log.csv'), ({ request }) => {
        asked.push(new URL(request.url).search);
        return new HttpResponse('\uFEFFTime (ISO 8601),Action\r\n2024-06-04T10:00:00.000Z,erase\r\n', { headers: { 'Content-Type': 'text/csv; charset=utf-8' } });
      }),
    );
    let saved: Blob | undefined;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:audit';
    });
    URL.revokeObjectURL = vi.fn();
    let name = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/audit-log?action=erase');
    const user = userEvent.setup();

    await screen.findByRole('table', { name: 'Audit log entries' });
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(name).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/));
    expect(asked).toEqual(['?action=erase']);
    expect(await csvBlobText(saved!)).toBe('Time (ISO 8601),Action\r\n2024-06-04T10:00:00.000Z,erase\r\n');
  });
});
