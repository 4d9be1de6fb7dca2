import { describe, expect, it } from 'vitest';

import { makeZodJitless } from './zod-jitless';

describe('makeZodJitless', () => {
  it('makes the installed zod parse without its `new Function` fast path', async () => {
    makeZodJitless();
    const { config } = await import('zod/v4/core');
    const { z } = await import('zod');
    expect(config().jitless).toBe(true);
    // under jitless zod never calls `new Function` (the CSP would report it even though zod catches the throw)
    const original = globalThis.Function;
    let calls = 0;
    globalThis.Function = function (...args: string[]) {
      calls += 1;
      return new original(...args);
    } as unknown as FunctionConstructor;
    try {
      expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    } finally {
      globalThis.Function = original;
    }
    expect(calls).toBe(0);
  });
});
