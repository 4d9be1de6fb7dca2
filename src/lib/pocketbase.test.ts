import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import { server } from '@/testing/msw-server';

import { candidateOptions, pb } from './pocketbase';

function recordRequestHeaders() {
  const seen: Headers[] = [];
  server.use(
    http.get(pb.buildURL('/api/collections/candidates/records/:id'), ({ request, params }) => {
      seen.push(request.headers);
      return HttpResponse.json({ id: params.id, collectionId: 'c', collectionName: 'candidates' });
    }),
  );
  return seen;
}

describe('pb', () => {
  it('sends Accept-Language: en-US unless the caller set a language', async () => {
    const seen = recordRequestHeaders();
    await pb.collection('candidates').getOne('k1');
    await pb.collection('candidates').getOne('k1', { headers: { 'accept-language': 'fr-FR' } });
    expect(seen.map((headers) => headers.get('accept-language'))).toEqual(['en-US', 'fr-FR']);
  });

  it("sends a candidate's key in X-Candidate-Key, keeping the caller's options", async () => {
    const seen = recordRequestHeaders();
    const controller = new AbortController();
    const record = await pb
      .collection('candidates')
      .getOne('k1', candidateOptions('k1', { signal: controller.signal, headers: { 'X-Trace': 't' } }));
    expect(record.id).toBe('k1');
    expect(seen[0]?.get('x-candidate-key')).toBe('k1');
    expect(seen[0]?.get('x-trace')).toBe('t');
  });

  it('lets two requests to the same path both finish (no auto-cancellation)', async () => {
    recordRequestHeaders();
    const candidates = pb.collection('candidates');
    const [a, b] = await Promise.all([candidates.getOne('a'), candidates.getOne('b')]);
    expect([a.id, b.id]).toEqual(['a', 'b']);
  });

  it('keeps the session under pocketbase_auth', () => {
    pb.authStore.save('token', { id: 'u1', collectionId: '_pb_users_auth_', collectionName: 'users' });
    expect(JSON.parse(localStorage.getItem('pocketbase_auth') ?? '{}')).toMatchObject({
      token: 'token',
      record: { id: 'u1' },
    });
  });
});
