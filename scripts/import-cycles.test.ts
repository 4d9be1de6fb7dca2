// No import cycles in the SPA or the media worker, type-only and dynamic imports included: a cycle makes the order
// modules run in depend on who imports first, and hides which of two modules is the lower layer. ESLint's
// import/no-cycle skips type-only imports, so this reads every import itself, with TypeScript's own scanner.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The project file an import names (relative, or `@/` for src/), or null for a package. */
function resolveImport(from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('@/')) base = join(root, 'src', specifier.slice(2));
  else if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else return null;
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')];
  if (/\.js$/.test(base)) candidates.push(base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'));
  return candidates.find(isFile) ?? null;
}

/** Every import of the file (static, type-only, re-exports and dynamic `import()`), as project files. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles.map((f) => resolveImport(file, f.fileName)).filter((f): f is string => f !== null);
}

/** The import cycles among `files`, each as the list of files around it (one cycle per strongly connected part). */
function importCycles(files: string[]): string[][] {
  const graph = new Map(files.map((file) => [file, importsOf(file)]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of files) if (!state.has(file)) visit(file);
  return cycles.map((cycle) => cycle.map((file) => relative(root, file)));
}

describe('import cycles', () => {
  it('the SPA and the media worker have none, type-only and dynamic imports included', () => {
    const files = [...sources(join(root, 'src')), ...sources(join(root, 'worker', 'src'))];
    expect(files.length).toBeGreaterThan(100);
    expect(importCycles(files)).toEqual([]);
  });

  it('finds a cycle made only of a type import one way and a dynamic import the other', () => {
    const folder = mkdtempSync(join(tmpdir(), 'import-cycles-'));
    try {
      writeFileSync(join(folder, 'dialog.tsx'), "import type { Action } from './body';\nexport const load = () => import('./body');\n");
      writeFileSync(join(folder, 'body.tsx'), "import type { Props } from './dialog';\nexport type Action = Props;\n");
      writeFileSync(join(folder, 'alone.ts'), "import { load } from './dialog';\nexport const again = load;\n");
      const cycles = importCycles(sources(folder)).map((cycle) => cycle.map((file) => file.split('/').pop()));
      expect(cycles).toHaveLength(1);
      expect([...new Set(cycles[0])].sort()).toEqual(['body.tsx', 'dialog.tsx']);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
