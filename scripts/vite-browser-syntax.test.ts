import { describe, expect, it } from 'vitest';

import { unsupportedSyntax } from './vite-browser-syntax';

describe('the syntax check of the built scripts (Safari 14.0, iOS 14.3)', () => {
  it('passes what Safari 14 parses: public instance fields, ?. and ??, logical assignment, awaits in functions', () => {
    const code = `class A { field = 1; m() { return this.field ?? 2; } }
      let x = null; x ??= new A()?.m();
      export async function f() { await 1; for await (const y of []) y; }
      const r = /(?<name>a)(?=b)/gu;`;
    expect(unsupportedSyntax(code, 'module')).toEqual([]);
  });

  it.each([
    ['a private field', 'class A { #a = 1; get() { return this.#a; } }', /private class member/],
    ['a private method', 'class A { #m() {} run() { this.#m(); } }', /private class member/],
    ['a static block', 'class A { static { this.x = 1; } }', /static block/],
    ['a static field', 'class A { static x = 1; }', /static class field/],
    ['a top-level await', 'await Promise.resolve();', /top-level await/],
    ['a lookbehind', 'const r = /(?<=a)b/;', /lookbehind/],
    ['a negative lookbehind', 'const r = /(?<!a)b/;', /lookbehind/],
    ['the d flag', 'const r = /a/d;', /flag/],
  ])('finds %s', (_what, code, problem) => {
    const problems = unsupportedSyntax(code, 'module');
    expect(problems.length).toBeGreaterThan(0);
    for (const found of problems) expect(found).toMatch(problem);
  });

  it('says so when a script does not parse at all', () => {
    expect(unsupportedSyntax('const = 1', 'script')[0]).toMatch(/does not parse/);
  });
});
