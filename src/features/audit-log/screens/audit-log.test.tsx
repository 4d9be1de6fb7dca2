import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { fullList, managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

const api = (path: string) => `${env.apiUrl}${path}`;

describe('the audit log (issue 19)', () => {
  it("lists the company's exports, erasures and deletions, newest first as the server sorts them: when, who, action, candidate id", async () => {
    const queries: string[] = [];
    server.use(
      http.get(api('/api/collections/audit_log/records'), ({ request }) => {
        queries.push(new URL(request.url).search);
        return HttpResponse.json(
          fullList([
            {
              id: 'l2',
              company: 'c1',
              actor: 'u1',
              action: 'erase',
              candidateId: 'cand00000000002',
              created: '2024-05-02 10:00:00.000Z',
              expand: { actor: { id: 'u1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' } },
            },
            { id: 'l1', company: 'c1', actor: '', action: 'retention_erase', candidateId: 'cand00000000001', created: '2024-05-01 10:00:00.000Z' },
            { id: 'l0', company: 'c1', actor: 'u1', action: 'delete', candidateId: 'cand00000000000', created: '2024-04-30 10:00:00.000Z', expand: { actor: { id: 'u1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' } } },
            { id: 'lj', company: 'c1', actor: '', action: 'job_delete', candidateId: 'cand0000000000j', created: '2024-04-29 10:00:00.000Z' },
          ]),
        );
      }),
    );
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/audit-log');

    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);
    expect(within(rows[0]!).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Erased candidate')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('cand00000000002')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Retention period')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Erased by retention')).toBeInTheDocument();
    // deletions too, in plain words; a deletion without a manager was a superuser's or a deleted account's
    expect(within(rows[2]!).getByText('Deleted candidate')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Ada Lovelace')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Deleted with their job')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('An administrator or a deleted account')).toBeInTheDocument();
    // only this company's entries, newest first
    const params = new URLSearchParams(queries[0]);
    expect(params.get('filter')).toBe('company = "c1"');
    expect(params.get('sort')).toBe('-created,-id');
    // reached from the company settings' side links
    expect(screen.getByRole('navigation', { name: 'Company settings' })).toHaveTextContent('Audit log');
  });

  it('names who acted by the kind the server recorded, the candidate\'s own withdrawal included, and reads the kind', async () => {
    const queries: string[] = [];
    const ada = { id: 'u1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' };
    server.use(
      http.get(api('/api/collections/audit_log/records'), ({ request }) => {
        queries.push(new URL(request.url).search);
        return HttpResponse.json(
          fullList([
            { id: 'w1', company: 'c1', actor: '', actorKind: 'candidate', action: 'withdraw', candidateId: 'cand0000000000w', created: '2024-06-05 10:00:00.000Z' },
            { id: 'm1', company: 'c1', actor: 'u1', actorKind: 'manager', action: 'erase', candidateId: 'cand0000000000m', created: '2024-06-04 10:00:00.000Z', expand: { actor: ada } },
            // a manager whose account was deleted since: the kind still says a manager did it
            { id: 'm2', company: 'c1', actor: '', actorKind: 'manager', action: 'delete', candidateId: 'cand0000000000d', created: '2024-06-03 10:00:00.000Z' },
            { id: 'r1', company: 'c1', actor: '', actorKind: 'retention', action: 'retention_erase', candidateId: 'cand0000000000r', created: '2024-06-02 10:00:00.000Z' },
            { id: 's1', company: 'c1', actor: '', actorKind: 'system', action: 'job_delete', candidateId: 'cand0000000000s', created: '2024-06-01 10:00:00.000Z' },
            // written before the kind was recorded: as before
            { id: 'o1', company: 'c1', actor: 'u1', actorKind: '', action: 'export', candidateId: 'cand0000000000o', created: '2024-05-31 10:00:00.000Z', expand: { actor: ada } },
            { id: 'o2', company: 'c1', actor: '', action: 'delete', candidateId: 'cand0000000000p', created: '2024-05-30 10:00:00.000Z' },
          ]),
        );
      }),
    );
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/audit-log');

    const table = await screen.findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => within(row).getAllByRole('cell').slice(1).map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['The candidate (withdrew)', 'Withdrew and deleted their answers', 'cand0000000000w'],
      ['Ada Lovelace', 'Erased candidate', 'cand0000000000m'],
      ['A deleted account', 'Deleted candidate', 'cand0000000000d'],
      ['Retention', 'Erased by retention', 'cand0000000000r'],
      ['System', 'Deleted with their job', 'cand0000000000s'],
      ['Ada Lovelace', 'Exported data', 'cand0000000000o'],
      ['An administrator or a deleted account', 'Deleted candidate', 'cand0000000000p'],
    ]);
    expect(new URLSearchParams(queries[0]).get('fields')?.split(',')).toContain('actorKind');
    expect(screen.getByText(/every candidate who withdrew and deleted their own answers/)).toBeInTheDocument();
  });

  it('says so when nothing was exported or erased yet', async () => {
    server.use(http.get(api('/api/collections/audit_log/records'), () => HttpResponse.json(fullList([]))));
    signInAs({ primaryCompany: 'c1' });
    managerShellApi();
    renderRoute('/companies/c1/audit-log');
    expect(await screen.findByText('No exports, erasures or deletions yet.')).toBeInTheDocument();
  });
});
