// The docs stay true: links resolve, and the configuration table, .env.example and the code agree
// (scripts/docs-check.ts). The first cases show each check failing on a made-up case; the last run it on the repository.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  anchorsOf,
  brokenLinks,
  configurationProblems,
  goVariables,
  jsVariables,
  linksIn,
  type DocFile,
  type Problem,
  type SourceFile,
} from './docs-check';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');

function filesUnder(folder: string, keep: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (keep(path)) out.push(path);
    }
  };
  if (existsSync(folder)) walk(folder);
  return out.sort();
}

const read = (path: string): SourceFile => ({ path: relative(root, path).split('\\').join('/'), text: readFileSync(path, 'utf8') });
const report = (problems: Problem[]) => problems.map((p) => `${p.file}:${p.line}: ${p.message}`).join('\n');

describe('the link check', () => {
  const docs = new Map<string, string>([
    ['README.md', '# Screenroom\n\nSee [operations](docs/operations.md#backups-and-restore) and ![pipeline](docs/images/pipeline.png).\n'],
    ['docs/operations.md', '# Operations\n\n## Backups and restore\n\nBack to the [README](../README.md).\n'],
  ]);
  const files = new Set(['README.md', 'docs/operations.md', 'docs/images/pipeline.png', 'docs', 'docs/images']);
  const check = (extra: [string, string][] = []) => {
    const all = new Map([...docs, ...extra]);
    return brokenLinks(
      [...all].map(([path, text]) => ({ path, text })),
      (path) => files.has(path) || all.has(path),
      (path) => all.get(path),
    );
  };

  it('passes links that resolve, with their anchors', () => {
    expect(check()).toEqual([]);
  });

  it('fails on a link to a file that does not exist', () => {
    const problems = check([['docs/api.md', '# API\n\nSee [the decisions](decisions/query-guard.md).\n']]);
    expect(problems).toEqual([{ file: 'docs/api.md', line: 3, message: 'decisions/query-guard.md: no such file or folder (docs/decisions/query-guard.md)' }]);
  });

  it('fails on an anchor that names no heading', () => {
    const problems = check([['docs/api.md', 'See [restore](operations.md#restoring).\n']]);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toBe('operations.md#restoring: docs/operations.md has no heading for #restoring');
  });

  it('fails on an image that is missing, a link out of the repository and an absolute path', () => {
    const problems = check([['docs/product.md', '![review](images/review.png)\n[x](../../outside.md)\n[y](/docs/api.md)\n']]);
    expect(problems.map((p) => p.line)).toEqual([1, 2, 3]);
  });

  it('reads links in prose only: code blocks and code spans are text', () => {
    const text = 'A [real](a.md) link.\n\n```sh\ncat [not](b.md)\n```\n\n`[nor](c.md)` and [ref]: d.md\n\n[ref]: e.md\n';
    expect(linksIn(text).map((l) => l.target)).toEqual(['a.md', 'e.md']);
  });

  it('makes anchors as GitHub does', () => {
    const anchors = anchorsOf('# The `npm start` stack\n## S3: bucket, versioning\n## Notes\n## Notes\n```\n# not a heading\n```\n');
    expect([...anchors]).toEqual(['the-npm-start-stack', 's3-bucket-versioning', 'notes', 'notes-1']);
  });
});

describe('the configuration check', () => {
  const operations = [
    '# Operations',
    '## Configuration',
    '| variable | meaning | default |',
    '| --- | --- | --- |',
    '| `APP_URL` | the public origin | required |',
    '| `S3_FORCE_PATH_STYLE` | path-style URLs | `true` |',
    '| `BACKUPS_CRON` | backup cron | the dashboard\'s |',
    '## Backups',
  ].join('\n');
  const code: Map<string, string[]> = new Map([
    ['APP_URL', ['server/internal/platform/settings.go']],
    ['S3_FORCE_PATH_STYLE', ['server/internal/platform/settings.go']],
    ['BACKUPS_CRON', ['server/internal/platform/settings.go']],
  ]);

  it('passes when the table, .env.example and the code agree', () => {
    expect(configurationProblems(code, operations, 'APP_URL=https://x.example\n# S3_FORCE_PATH_STYLE=true\n# BACKUPS_CRON=\n')).toEqual([]);
  });

  it('fails when .env.example gives another default than the table', () => {
    const problems = configurationProblems(code, operations, 'APP_URL=https://x.example\nS3_FORCE_PATH_STYLE=false\n# BACKUPS_CRON=\n');
    expect(report(problems)).toBe('.env.example:2: S3_FORCE_PATH_STYLE=false, but the configuration table\'s default is true');
  });

  it('fails when the code reads a variable neither documents', () => {
    const more = new Map([...code, ['WEBHOOKS_TIMEOUT_MS', ['server/internal/webhooks/webhooks.go']]]);
    const problems = configurationProblems(more, operations, 'APP_URL=https://x.example\n# S3_FORCE_PATH_STYLE=true\n# BACKUPS_CRON=\n');
    expect(problems.map((p) => p.message)).toEqual([
      'WEBHOOKS_TIMEOUT_MS (read by server/internal/webhooks/webhooks.go) has no row in the configuration tables',
      'WEBHOOKS_TIMEOUT_MS (read by server/internal/webhooks/webhooks.go) is not in .env.example',
    ]);
  });

  it('fails on a required variable left out, a documented one no code reads, and a stray line', () => {
    const fewer = new Map([...code].filter(([name]) => name !== 'BACKUPS_CRON'));
    const problems = configurationProblems(fewer, operations, '# APP_URL=\n# S3_FORCE_PATH_STYLE=true\n# BACKUPS_CRON=\nOLD_SETTING=1\n');
    expect(problems.map((p) => p.message)).toEqual([
      'APP_URL is required (the configuration table): set it, not commented out or empty',
      'BACKUPS_CRON is documented, but no code reads it any more',
      'OLD_SETTING is neither read by the code nor in the configuration table',
    ]);
  });

  it('finds the variables Go reads through helpers, and the ones JavaScript reads', () => {
    const go = goVariables([
      { path: 'a.go', text: 'func f() { os.Getenv(name) }\nvar x = envInt("SMTP_PORT")\nmode := "FULL"\n' },
      { path: 'b.go', text: 'const benchSeedSetting = "SCREENROOM_BENCH_SEED"\nvar y = "NOT_READ_HERE"\n' },
    ]);
    expect([...go.keys()].sort()).toEqual(['SCREENROOM_BENCH_SEED', 'SMTP_PORT']);
    const js = jsVariables([{ path: 'c.ts', text: 'env.PB_URL ?? x; process.env["PB_DEV"]; import.meta.env.DEV; need("APP_URL", "...")' }]);
    expect([...js.keys()].sort()).toEqual(['APP_URL', 'PB_DEV', 'PB_URL']);
  });
});

describe('the repository', () => {
  it('has no broken relative link or anchor in README.md, CONTRIBUTING.md and docs/', () => {
    const paths = [join(root, 'README.md'), join(root, 'CONTRIBUTING.md'), ...filesUnder(join(root, 'docs'), (p) => p.endsWith('.md'))].filter((p) =>
      existsSync(p),
    );
    const docs: DocFile[] = paths.map(read);
    const byPath = new Map(docs.map((doc) => [doc.path, doc.text]));
    const problems = brokenLinks(
      docs,
      (path) => existsSync(join(root, path)),
      (path) => byPath.get(path) ?? (path.endsWith('.md') && existsSync(join(root, path)) && statSync(join(root, path)).isFile() ? readFileSync(join(root, path), 'utf8') : undefined),
    );
    expect(report(problems)).toBe('');
  });

  it('documents every variable the product reads, in docs/operations.md and .env.example, with the same defaults', () => {
    const go = goVariables(filesUnder(join(root, 'server'), (p) => p.endsWith('.go')).map(read));
    const production = [
      ...filesUnder(join(root, 'worker'), (p) => /\.(ts|mjs)$/.test(p) && !/\.test\./.test(p)),
      ...['scripts/serve.mjs', 'scripts/restore.mjs', 'scripts/lib/pocketbase.mjs', 'scripts/lib/deps.mjs', 'scripts/lib/supervise.mjs', 'scripts/lib/production-env.mjs', 'scripts/lib/litestream.mjs'].map((p) => join(root, p)),
      ...filesUnder(join(root, 'src'), (p) => /\.tsx?$/.test(p) && !/\.test\./.test(p) && !p.includes(`${join('src', 'testing')}`)),
    ];
    const js = jsVariables(production.map(read));
    const all = new Map(go);
    for (const [name, files] of js) all.set(name, [...(all.get(name) ?? []), ...files]);
    const problems = configurationProblems(all, readFileSync(join(root, 'docs/operations.md'), 'utf8'), readFileSync(join(root, '.env.example'), 'utf8'));
    expect(report(problems)).toBe('');
  });
});
