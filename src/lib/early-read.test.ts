import { ClientResponseError } from 'pocketbase';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { earlyReadsScript } from '../../scripts/vite-early-reads';

import { takeEarlyRead } from './early-read';

/** Runs the inline script the build puts in index.html, on `path`, with `fetch` answering `answer`. */
function runInlineScript(path: string, answer: () => Promise<Response>, catalogs: Record<string, string> = {}) {
  window.history.replaceState(null, '', path);
  const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() => answer());
  vi.stubGlobal('fetch', fetchMock);
  // the browser runs it as a classic inline script; indirect eval runs it the same way, in the global scope
  (0, eval)(earlyReadsScript('https://api.example.test', catalogs));
  return fetchMock;
}

/** A session in the SDK's store as the app leaves it: a JWT whose payload says when it expires. */
function storeSession(expiresInSeconds: number, collectionName = 'users') {
  const payload = btoa(JSON.stringify({ id: 'u1', exp: Math.floor(Date.now() / 1000) + expiresInSeconds }))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
  const token = `eyJhbGciOiJIUzI1NiJ9.${payload}.sig`;
  localStorage.setItem('pocketbase_auth', JSON.stringify({ token, record: { id: 'u1', collectionName } }));
  return token;
}

const interviewPath = (key: string) => `/api/screenroom/interviews/${encodeURIComponent(key)}`;

afterEach(() => {
  vi.unstubAllGlobals();
  document.head.querySelectorAll('link[rel="modulepreload"]').forEach((link) => link.remove());
  window.history.replaceState(null, '', '/');
  localStorage.clear();
  delete (window as unknown as Record<string, unknown>).__screenroomEarlyReads;
});

describe("a candidate's interview read started by index.html", () => {
  it("starts the candidate's GET with the key in the path and the header, and hands its answer to the app once", async () => {
    const interview = { candidateId: 'k3y 1', jobTitle: 'Support' };
    const fetchMock = runInlineScript('/candidates/k3y%201/questions/q1', () => Promise.resolve(Response.json(interview)));
    expect(fetchMock).toHaveBeenCalledWith('https://api.example.test/api/screenroom/interviews/k3y%201', {
      headers: { 'X-Candidate-Key': 'k3y 1', 'Accept-Language': 'en-US' },
    });
    await expect(takeEarlyRead(interviewPath('k3y 1'))).resolves.toEqual(interview);
    // a later read (after consent, a retry...) asks the server again
    expect(takeEarlyRead(interviewPath('k3y 1'))).toBeNull();
  });

  it("preloads the catalog of the language the screens will speak, and still hands the whole read to the app", async () => {
    const catalogs = { en: '/assets/messages-en-1.js', de: '/assets/messages-de-2.js', ar: '/assets/messages-ar-3.js' };
    const preloaded = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => link.getAttribute('href'));
    const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

    // the job's language
    runInlineScript('/candidates/k3y', () => Promise.resolve(Response.json({ language: 'de', candidateLanguage: '' })), catalogs);
    await expect(takeEarlyRead(interviewPath('k3y'))).resolves.toEqual({ language: 'de', candidateLanguage: '' });
    await settle();
    expect(preloaded()).toEqual(['/assets/messages-de-2.js']);
    document.head.querySelectorAll('link[rel="modulepreload"]').forEach((link) => link.remove());

    // the switcher's choice stored for this link wins; a language without a catalog is passed over
    localStorage.setItem('screenroom.language.k3y', 'ar');
    runInlineScript('/candidates/k3y', () => Promise.resolve(Response.json({ language: 'xx', candidateLanguage: 'de' })), catalogs);
    await settle();
    expect(preloaded()).toEqual(['/assets/messages-ar-3.js']);
    document.head.querySelectorAll('link[rel="modulepreload"]').forEach((link) => link.remove());

    // a link that opens nothing preloads nothing
    runInlineScript('/candidates/gone', () => Promise.resolve(Response.json({ status: 404, message: 'x' }, { status: 404 })), catalogs);
    await settle();
    expect(preloaded()).toEqual([]);
  });

  it("answers a refusal as the SDK would: a ClientResponseError with the server's status and message", async () => {
    runInlineScript('/candidates/gone', () => Promise.resolve(Response.json({ status: 410, message: 'Replaced.' }, { status: 410 })));
    const error = await takeEarlyRead(interviewPath('gone'))?.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientResponseError);
    expect((error as ClientResponseError).status).toBe(410);
    expect((error as ClientResponseError).message).toBe('Replaced.');
  });

  it('leaves the read to the app after a network failure, for another key, and off the candidate pages', async () => {
    runInlineScript('/candidates/k3y', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(takeEarlyRead(interviewPath('k3y'))).resolves.toBeNull();

    runInlineScript('/candidates/k3y', () => Promise.resolve(Response.json({})));
    expect(takeEarlyRead(interviewPath('other'))).toBeNull();

    const fetchMock = runInlineScript('/auth/sign-in', () => Promise.resolve(Response.json({})));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(takeEarlyRead(interviewPath('k3y'))).toBeNull();
  });
});

describe("a company home's reads started by index.html", () => {
  const jobs = '/api/screenroom/companies/abcdefghij12345/jobs';
  const counts = '/api/screenroom/companies/abcdefghij12345/job-counts';

  it("starts the jobs list and its counts with the stored session's token, each handed over once", async () => {
    const token = storeSession(3600);
    const fetchMock = runInlineScript('/companies/abcdefghij12345', (() => {
      let n = 0;
      return () => Promise.resolve(Response.json(n++ === 0 ? [{ id: 'j1' }] : { jobs: {} }));
    })());
    expect(fetchMock.mock.calls).toEqual([
      [`https://api.example.test${jobs}`, { headers: { Authorization: token, 'Accept-Language': 'en-US' } }],
      [`https://api.example.test${counts}`, { headers: { Authorization: token, 'Accept-Language': 'en-US' } }],
    ]);
    await expect(takeEarlyRead(jobs)).resolves.toEqual([{ id: 'j1' }]);
    await expect(takeEarlyRead(counts)).resolves.toEqual({ jobs: {} });
    expect(takeEarlyRead(jobs)).toBeNull();

    runInlineScript('/companies/abcdefghij12345/jobs/', () => Promise.resolve(Response.json([])));
    await expect(takeEarlyRead(jobs)).resolves.toEqual([]);
  });

  it("sends nothing without a session, with one about to expire, with a superuser's session, or on other pages", () => {
    expect(runInlineScript('/companies/abcdefghij12345', () => Promise.resolve(Response.json([])))).not.toHaveBeenCalled();
    storeSession(30);
    expect(runInlineScript('/companies/abcdefghij12345', () => Promise.resolve(Response.json([])))).not.toHaveBeenCalled();
    storeSession(3600, '_superusers');
    expect(runInlineScript('/companies/abcdefghij12345', () => Promise.resolve(Response.json([])))).not.toHaveBeenCalled();
    storeSession(3600);
    for (const page of ['/companies/new', '/companies/abcdefghij12345/questions', '/companies/abcdefghij12345/jobs/j1']) {
      expect(runInlineScript(page, () => Promise.resolve(Response.json([])))).not.toHaveBeenCalled();
    }
    localStorage.setItem('pocketbase_auth', '{not json');
    expect(runInlineScript('/companies/abcdefghij12345', () => Promise.resolve(Response.json([])))).not.toHaveBeenCalled();
  });
});
