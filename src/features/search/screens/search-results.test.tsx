import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { queryClient } from '@/lib/query-client';
import { managerShellApi } from '@/testing/manager-shell-api';
import { server } from '@/testing/msw-server';
import { renderRoute } from '@/testing/render-route';
import { signInAs } from '@/testing/session';

import type { SearchHit } from '../api/search-answers';

afterEach(() => queryClient.clear());

const hit = (n: number, fields: Partial<SearchHit> = {}): SearchHit => ({
  answer: `a${n}`,
  kind: 'text',
  candidate: { id: `k${n}`, email: `candidate${n}@example.com` },
  job: { id: 'j1', title: 'Support engineer' },
  question: { id: 'q1', title: 'Why us?' },
  snippet: `I \u0002migrated\u0003 the cluster ${n}`,
  startSeconds: null,
  ...fields,
});

/** The search route as the server answers it, recording what it was asked. */
function searchApi(pages: Record<string, { items: SearchHit[]; more: boolean }>) {
  const asked: { q: string | null; offset: string | null }[] = [];
  server.use(
    http.get(`${env.apiUrl}/api/screenroom/companies/c1/search`, ({ request }) => {
      const url = new URL(request.url);
      asked.push({ q: url.searchParams.get('q'), offset: url.searchParams.get('offset') });
      return HttpResponse.json(pages[url.searchParams.get('offset') ?? '0'] ?? { items: [], more: false });
    }),
  );
  return asked;
}

function open(path: string) {
  managerShellApi();
  signInAs({ primaryCompany: 'c1' });
  return renderRoute(path);
}

describe('search answers', () => {
  it('searches from the shell and lists the hits with their matches marked, linking to the review at the answer and second', async () => {
    const user = userEvent.setup();
    const asked = searchApi({
      '0': { items: [hit(1), hit(2, { kind: 'video', startSeconds: 64.5, snippet: 'we \u0002migrated\u0003 it live' })], more: false },
    });
    const { router } = open('/companies/c1/jobs');
    await user.type(await screen.findByRole('searchbox', { name: 'Search answers' }), 'migrated');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    const results = await screen.findByRole('list', { name: 'Search results' });
    expect(router.state.location.pathname).toBe('/companies/c1/search');
    expect(router.state.location.search).toBe('?q=migrated');
    expect(asked).toEqual([{ q: 'migrated', offset: '0' }]);
    expect(screen.getByText('2 answers for “migrated”')).toHaveAttribute('role', 'status');
    const items = within(results).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.querySelector('mark')?.textContent).toBe('migrated');
    expect(within(items[0]!).getByRole('link', { name: 'candidate1@example.com' })).toHaveAttribute('href', '/companies/c1/jobs/j1/candidates/k1?answer=a1');
    expect(items[1]).toHaveTextContent('Support engineer · Why us? · Transcript at 1:04');
    expect(within(items[1]!).getByRole('link', { name: 'candidate2@example.com' })).toHaveAttribute(
      'href',
      '/companies/c1/jobs/j1/candidates/k2?answer=a2&t=64.5',
    );
  });

  it('says when nothing matches, and reads more pages on demand', async () => {
    const user = userEvent.setup();
    const first = Array.from({ length: 20 }, (_, i) => hit(i));
    const asked = searchApi({ '0': { items: first, more: true }, '20': { items: [hit(20)], more: false } });
    open('/companies/c1/search?q=migrated');
    expect(await screen.findByText('The best 20 answers for “migrated”')).toHaveAttribute('role', 'status');
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('candidate20@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).toBeNull();
    expect(asked.map((a) => a.offset)).toEqual(['0', '20']);

    searchApi({});
    await user.clear(screen.getAllByRole('searchbox', { name: 'Search answers' })[1]!);
    await user.type(screen.getAllByRole('searchbox', { name: 'Search answers' })[1]!, 'astronaut{Enter}');
    expect(await screen.findByText('No answers match “astronaut”.')).toBeInTheDocument();
  });

  it('asks nothing for an empty query', async () => {
    const asked = searchApi({});
    open('/companies/c1/search');
    expect(await screen.findByRole('heading', { level: 1, name: 'Search answers' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
    expect(asked).toEqual([]);
  });
});
