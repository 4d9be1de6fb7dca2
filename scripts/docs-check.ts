// The checks that keep the docs true (scripts/docs-check.test.ts runs them in `npm test`'s unit step):
// - every relative link and image in README.md, CONTRIBUTING.md and docs/ names a file that exists, and a link's
//   #anchor names a heading of the file it points into;
// - every environment variable the product reads (the Go server, the media worker, the production scripts, the
//   SPA's build) has a row in docs/operations.md's configuration tables and a line in .env.example, and the two say
//   the same default.
// Pure functions over texts, so the test can show each check failing on a made-up case.

export interface DocFile {
  path: string; // relative to the repository root, with forward slashes
  text: string;
}

export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** The lines of a Markdown text that are prose: fenced code blocks blanked, so a link in a code sample is not one. */
function proseLines(markdown: string): string[] {
  let fence: string | null = null;
  return markdown.split('\n').map((line) => {
    const opening = /^\s*(```+|~~~+)/.exec(line);
    if (fence === null && opening) {
      fence = opening[1]!;
      return '';
    }
    if (fence !== null) {
      if (line.trim().startsWith(fence)) fence = null;
      return '';
    }
    return line;
  });
}

/** A line with its inline code spans blanked (links inside backticks are text). */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[\s\S]*?\1/g, (span) => ' '.repeat(span.length));
}

export interface Link {
  target: string;
  line: number;
}

/** Inline links and images `[text](target "title")`, and reference definitions `[name]: target`. */
export function linksIn(markdown: string): Link[] {
  const links: Link[] = [];
  proseLines(markdown).forEach((raw, index) => {
    const line = withoutCodeSpans(raw);
    for (const match of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line: index + 1 });
    }
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(line);
    if (definition) links.push({ target: definition[1]!, line: index + 1 });
  });
  return links;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file offers: its headings' slugs (a repeated one gets -1, -2...), and explicit ids. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const id of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id[1]!);
  }
  return anchors;
}

function normalise(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return '../';
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/**
 * Links that lead nowhere. `exists` says whether a repository path (file or folder) exists; `markdown` gives the text
 * of a Markdown file the links may point into (for its anchors), or undefined when it is not one of the checked docs.
 */
export function brokenLinks(
  docs: DocFile[],
  exists: (path: string) => boolean,
  markdown: (path: string) => string | undefined,
): Problem[] {
  const problems: Problem[] = [];
  for (const doc of docs) {
    const folder = doc.path.includes('/') ? doc.path.slice(0, doc.path.lastIndexOf('/')) : '';
    for (const { target, line } of linksIn(doc.text)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:...: not the repository's
      const problem = (message: string) => problems.push({ file: doc.path, line, message: `${target}: ${message}` });
      const hash = target.indexOf('#');
      const pathPart = decodeURIComponent(hash >= 0 ? target.slice(0, hash) : target);
      const anchor = hash >= 0 ? decodeURIComponent(target.slice(hash + 1)) : '';
      if (pathPart.startsWith('/')) {
        problem('an absolute path; write it relative to this file');
        continue;
      }
      const resolved = pathPart === '' ? doc.path : normalise(`${folder}/${pathPart}`);
      if (resolved.startsWith('../')) {
        problem('leads out of the repository');
        continue;
      }
      if (pathPart !== '' && !exists(resolved)) {
        problem(`no such file or folder (${resolved})`);
        continue;
      }
      if (anchor === '') continue;
      const text = markdown(resolved);
      if (text === undefined) {
        if (resolved.endsWith('.md')) problem(`an anchor into ${resolved}, which is not a checked document`);
        continue;
      }
      if (!anchorsOf(text).has(anchor)) problem(`${resolved} has no heading for #${anchor}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------
// Configuration

export interface SourceFile {
  path: string;
  text: string;
}

/** Upper-case string literals in Go files that are not environment variables. */
const GO_LITERALS_NOT_VARIABLES = new Set([
  'FULL', // SQLite's synchronous mode (platform/durable.go)
  'NORMAL',
]);

/**
 * The variables the Go server reads: in every file that calls os.Getenv or os.LookupEnv, each string literal shaped
 * like a variable's name (the name often reaches os.Getenv through a helper, `envInt("SMTP_PORT")`), and each
 * constant named like `...Setting = "NAME"`.
 */
export function goVariables(files: SourceFile[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (name: string, path: string) => {
    if (GO_LITERALS_NOT_VARIABLES.has(name)) return;
    const paths = found.get(name) ?? [];
    if (!paths.includes(path)) paths.push(path);
    found.set(name, paths);
  };
  for (const file of files) {
    if (!file.path.endsWith('.go') || file.path.endsWith('_test.go')) continue;
    for (const match of file.text.matchAll(/\b\w*Setting\s*=\s*"([A-Z][A-Z0-9_]+)"/g)) add(match[1]!, file.path);
    if (!/\bos\.(?:Getenv|LookupEnv)\(/.test(file.text)) continue;
    for (const match of file.text.matchAll(/"([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)"/g)) {
      if (match[1]!.length >= 4) add(match[1]!, file.path);
    }
  }
  return found;
}

/** The variables a JavaScript or TypeScript file reads: `env.NAME`, `env["NAME"]`, `import.meta.env.NAME`, `need("NAME"`. */
export function jsVariables(files: SourceFile[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of files) {
    const patterns = [/\benv\.([A-Z][A-Z0-9_]+)\b/g, /\benv\[\s*["'`]([A-Z][A-Z0-9_]+)["'`]\s*\]/g, /\bneed\(\s*"([A-Z][A-Z0-9_]+)"/g];
    for (const pattern of patterns) {
      for (const match of file.text.matchAll(pattern)) {
        const name = match[1]!;
        if (['DEV', 'PROD', 'MODE', 'SSR', 'BASE_URL'].includes(name)) continue; // Vite's own, not settings
        const paths = found.get(name) ?? [];
        if (!paths.includes(file.path)) paths.push(file.path);
        found.set(name, paths);
      }
    }
  }
  return found;
}

export type Default = { kind: 'literal'; value: string } | { kind: 'required' } | { kind: 'none' };

export interface Documented {
  default: Default;
  line: number;
}

/**
 * The rows of the tables under the "## Configuration" heading of operations.md (down to the next "## " heading): the
 * first column is one variable in backticks, the column headed "default" says its default: one value in backticks
 * (`10/60`), "required", or words (no value of its own: unset, or the dashboard's).
 */
export function configurationTable(markdown: string): { variables: Map<string, Documented>; problems: Problem[] } {
  const variables = new Map<string, Documented>();
  const problems: Problem[] = [];
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => /^## Configuration\s*$/.test(line));
  if (start < 0) return { variables, problems: [{ file: 'docs/operations.md', line: 1, message: 'no "## Configuration" section' }] };
  let defaultColumn = -1;
  for (let i = start + 1; i < lines.length && !/^## /.test(lines[i]!); i++) {
    const line = lines[i]!;
    if (!line.startsWith('|')) {
      defaultColumn = -1;
      continue;
    }
    const cells = line.slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined).split(/(?<!\\)\|/).map((cell) => cell.trim());
    if (defaultColumn < 0) {
      defaultColumn = cells.findIndex((cell) => cell.toLowerCase() === 'default');
      if (cells[0]?.toLowerCase() !== 'variable' || defaultColumn < 0) {
        problems.push({ file: 'docs/operations.md', line: i + 1, message: 'a configuration table needs the columns "variable" (first) and "default"' });
        defaultColumn = 0;
      }
      continue;
    }
    if (/^:?-+:?$/.test(cells[0] ?? '')) continue;
    const name = /^`([A-Z][A-Z0-9_]*)`$/.exec(cells[0] ?? '');
    if (!name) {
      problems.push({ file: 'docs/operations.md', line: i + 1, message: `the first cell must be one variable in backticks, not "${cells[0]}"` });
      continue;
    }
    const cell = cells[defaultColumn] ?? '';
    const literal = /^`([^`]*)`$/.exec(cell);
    const value: Default = literal ? { kind: 'literal', value: literal[1]! } : /^required\b/i.test(cell) ? { kind: 'required' } : { kind: 'none' };
    if (variables.has(name[1]!)) problems.push({ file: 'docs/operations.md', line: i + 1, message: `${name[1]} has two rows` });
    variables.set(name[1]!, { default: value, line: i + 1 });
  }
  return { variables, problems };
}

export interface ExampleLine {
  value: string;
  commented: boolean;
  line: number;
}

/** `NAME=value` lines of .env.example, and `# NAME=value` ones (set to show the default, commented out). */
export function envExample(text: string): { variables: Map<string, ExampleLine>; problems: Problem[] } {
  const variables = new Map<string, ExampleLine>();
  const problems: Problem[] = [];
  text.split('\n').forEach((line, index) => {
    const match = /^(#\s*)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) return;
    const name = match[2]!;
    if (variables.has(name)) problems.push({ file: '.env.example', line: index + 1, message: `${name} is set twice` });
    variables.set(name, { value: match[3]!.trim(), commented: match[1] !== undefined, line: index + 1 });
  });
  return { variables, problems };
}

/**
 * What differs between the code, the configuration table and .env.example. `read` maps each variable the code
 * reads to the files that read it.
 */
export function configurationProblems(read: Map<string, string[]>, operations: string, example: string): Problem[] {
  const table = configurationTable(operations);
  const env = envExample(example);
  const problems = [...table.problems, ...env.problems];
  for (const [name, files] of [...read].sort(([a], [b]) => a.localeCompare(b))) {
    if (!table.variables.has(name)) {
      problems.push({ file: 'docs/operations.md', line: 1, message: `${name} (read by ${files.join(', ')}) has no row in the configuration tables` });
    }
    if (!env.variables.has(name)) {
      problems.push({ file: '.env.example', line: 1, message: `${name} (read by ${files.join(', ')}) is not in .env.example` });
    }
  }
  for (const [name, row] of table.variables) {
    if (!read.has(name)) {
      problems.push({ file: 'docs/operations.md', line: row.line, message: `${name} is documented, but no code reads it any more` });
    }
    const line = env.variables.get(name);
    if (!line) {
      if (read.has(name)) continue; // said above
      problems.push({ file: '.env.example', line: 1, message: `${name} is in the configuration table but not in .env.example` });
      continue;
    }
    const where = { file: '.env.example', line: line.line };
    if (row.default.kind === 'required') {
      if (line.commented || line.value === '') problems.push({ ...where, message: `${name} is required (the configuration table): set it, not commented out or empty` });
    } else if (row.default.kind === 'literal') {
      if (line.value !== '' && line.value !== row.default.value) {
        problems.push({ ...where, message: `${name}=${line.value}, but the configuration table's default is ${row.default.value}` });
      }
    } else if (line.value !== '') {
      problems.push({ ...where, message: `${name}=${line.value}, but the configuration table gives it no default value (leave it empty)` });
    }
  }
  for (const [name, line] of env.variables) {
    if (!table.variables.has(name) && !read.has(name)) {
      problems.push({ file: '.env.example', line: line.line, message: `${name} is neither read by the code nor in the configuration table` });
    }
  }
  return problems;
}
