import { ClientResponseError } from 'pocketbase';
import { describe, expect, it } from 'vitest';

import { retryDelay, shouldRetry } from './query-client';

const responseError = (status: number) => new ClientResponseError({ status, response: { message: 'x' } });

describe('shouldRetry', () => {
  it.each([400, 401, 403, 404])('never retries a %i', (status) => {
    expect(shouldRetry(0, responseError(status))).toBe(false);
  });

  it.each([0, 408, 429, 500, 503])('retries a %i up to 3 times', (status) => {
    expect(shouldRetry(0, responseError(status))).toBe(true);
    expect(shouldRetry(2, responseError(status))).toBe(true);
    expect(shouldRetry(3, responseError(status))).toBe(false);
  });

  it('retries other errors up to 3 times', () => {
    expect(shouldRetry(2, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(3, new TypeError('Failed to fetch'))).toBe(false);
  });
});

describe('retryDelay', () => {
  it('doubles from one second up to 30 seconds', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
