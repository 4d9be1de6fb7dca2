// The server is Go, one package per domain (docs/architecture.md): the only JavaScript under server/ is the schema's
// migrations, which PocketBase's JSVM runs and scripts/typegen.mjs reads. A hook file (.pb.js) or any other script
// there would be server behaviour in a second language again, unlinted and untyped, so this fails on the first one.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const server = join(root, 'server');

function files(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? files(path) : [relative(server, path)];
  });
}

/** Files that are JavaScript by name, or by a `#!` line naming node or a JS runtime. */
function isJavaScript(path: string): boolean {
  if (/\.(c|m)?jsx?$|\.tsx?$/.test(path)) return true;
  const head = readFileSync(join(server, path), 'utf8').slice(0, 64);
  return /^#!.*\b(node|deno|bun|goja)\b/.test(head);
}

describe('the server folder', () => {
  it('holds JavaScript only as migrations (server/pb_migrations/*.js), no hooks', () => {
    const strays = files(server).filter((path) => isJavaScript(path) && !/^pb_migrations\/[^/]+\.js$/.test(path));
    expect(strays).toEqual([]);
  });

  it('has no pb_hooks folder, and the Go main loads no hooks', () => {
    expect(readdirSync(server)).not.toContain('pb_hooks');
    const main = readFileSync(join(server, 'cmd', 'screenroom', 'main.go'), 'utf8');
    expect(main).not.toMatch(/HooksDir\s*:/);
  });

  it('keeps every domain package registering through one Register(app)', () => {
    const internal = join(server, 'internal');
    const packages = readdirSync(internal, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(packages.length).toBeGreaterThan(5);
    const main = readFileSync(join(server, 'cmd', 'screenroom', 'main.go'), 'utf8');
    for (const pkg of packages) {
      const register = readFileSync(join(internal, pkg.name, 'register.go'), 'utf8');
      expect(register, `${pkg.name}/register.go`).toMatch(/^func Register\(app core\.App(, [^)]*)?\)/m);
      expect(main, `main registers ${pkg.name}`).toMatch(new RegExp(`\\b${pkg.name}\\.Register\\(app\\b`));
    }
  });
});
