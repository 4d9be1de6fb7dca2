import { ClientResponseError } from 'pocketbase';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { interviewPrefetchScript } from '../../../../scripts/vite-interview-prefetch';

import { takeEarlyInterview } from './early-interview';

/** Runs the inline script the build puts in index.html, on `path`, with `fetch` answering `answer`. */
function runInlineScript(path: string, answer: () => Promise<Response>) {
  window.history.replaceState(null, '', path);
  const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() => answer());
  vi.stubGlobal('fetch', fetchMock);
  // the browser runs it as a classic inline script; indirect eval runs it the same way, in the global scope
  (0, eval)(interviewPrefetchScript('https://api.example.test'));
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
  delete (window as unknown as Record<string, unknown>).__screenroomInterview;
});

describe('the interview read started by index.html', () => {
  it("starts the candidate's GET with the key in the path and the header, and hands its answer to the app once", async () => {
    const interview = { candidateId: 'k3y 1', jobTitle: 'Support' };
    const fetchMock = runInlineScript('/candidates/k3y%201/questions/q1', () => Promise.resolve(Response.json(interview)));
    expect(fetchMock).toHaveBeenCalledWith('https://api.example.test/api/screenroom/interviews/k3y%201', {
      headers: { 'X-Candidate-Key': 'k3y 1', 'Accept-Language': 'en-US' },
    });
    await expect(takeEarlyInterview('k3y 1')).resolves.toEqual(interview);
    // a later read (after consent, a retry...) asks the server again
    expect(takeEarlyInterview('k3y 1')).toBeNull();
  });

  it("answers a refusal as the SDK would: a ClientResponseError with the server's status and message", async () => {
    runInlineScript('/candidates/gone', () => Promise.resolve(Response.json({ status: 410, message: 'Replaced.' }, { status: 410 })));
    const error = await takeEarlyInterview('gone')?.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientResponseError);
    expect((error as ClientResponseError).status).toBe(410);
    expect((error as ClientResponseError).message).toBe('Replaced.');
  });

  it('leaves the read to the app after a network failure, for another key, and off the candidate pages', async () => {
    runInlineScript('/candidates/k3y', () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(takeEarlyInterview('k3y')).resolves.toBeNull();

    runInlineScript('/candidates/k3y', () => Promise.resolve(Response.json({})));
    expect(takeEarlyInterview('other')).toBeNull();

    const fetchMock = runInlineScript('/auth/sign-in', () => Promise.resolve(Response.json({})));
    expect(fetchMock).not.toHaveBeenCalled();
    expect(takeEarlyInterview('k3y')).toBeNull();
  });
});
