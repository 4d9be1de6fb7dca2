import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

import postcss, { type AtRule, type Container, type Message, type Node, type Plugin, type Result, type Root, type Rule } from 'postcss';

/**
 * A PostCSS plugin that cuts Radix Themes' full stylesheet (81 KB gzip) down to what a few screens use, for
 * the candidate's interview: a first visit there must stay under 30 KB of CSS (issue 8), while the manager
 * screens keep the full stylesheet.
 *
 * A stylesheet opts in with one at-rule after importing the full styles:
 *
 *   @import '@radix-ui/themes/styles.css';
 *   @radix-subset components(Box Flex Text) colors(gray slate indigo);
 *
 * A second stylesheet that only adds components to a page already holding such a subset (the auth card) says
 * `components-only`: tokens, utilities, fonts and keyframes are left to the first one.
 *
 * `*` keeps every component or colour, `responsive` keeps the responsive variants, and `srgb` drops the Display P3
 * colour overrides (`@supports (color: color(display-p3 ...))`).
 *
 * `auto` (the manager shell's stylesheet, shared by every manager screen) reads what the app's source uses, so it
 * needs no upkeep: `components(auto)` keeps the classes of every Radix Themes component imported anywhere under
 * src/ (the `rt-*` class names written in those components' own files, which is exactly what they render),
 * `colors(auto)` keeps gray plus every colour scale named in a `color`, `accentColor` or `grayColor` attribute,
 * and `responsive(auto)` keeps the breakpoint variants only of the props given responsive values
 * (`direction={{ initial: 'column', sm: 'row' }}`). The stylesheet is rebuilt when a source file changes.
 *
 * `after(src/app/core-styles.css)` (the manager shell's stylesheet, which always loads after the entry's): drops
 * the rules and the `@font-face`/`@keyframes` that the named stylesheet (a subset of the same Radix file) already
 * holds word for word, where dropping cannot change the cascade: a repeated rule is kept when a rule this
 * stylesheet keeps, earlier in Radix's file, sets one of its properties (with the repeat gone, that earlier rule
 * would come after the entry's copy and could win). Tokens, colour scales and the shared components go; issue 20: the
 * company home's CSS from 39 to about 30 KB gzip.
 *
 * `components` lists Radix class names without the `rt-` prefix (the exact classes, e.g. `CalloutRoot`,
 * `BaseButton`): rules for any other component class are dropped. `colors` lists the colour scales kept (the
 * accent, the theme's gray and every `color` prop used): other scales' variables and `data-accent-color`
 * rules are dropped. Also dropped: the dark appearance (the interview renders with `appearance="inherit"` on
 * a page that never sets `.dark`) and the responsive (`xs:`..`xl:`) variants of utility props, which the
 * interview screens do not use (they pass plain values, never `{ initial, sm }` objects).
 */
/** `sourceDir`: the app's source, read by the `auto` lists (default: src/ under the working directory). */
export function radixSubset({ sourceDir = resolve('src') }: { sourceDir?: string } = {}): Plugin {
  return {
    postcssPlugin: 'radix-subset',
    OnceExit(root, { result }) {
      let options: AtRule | undefined;
      root.walkAtRules('radix-subset', (rule) => {
        options = rule;
      });
      if (!options) return;
      const params = options.params;
      const auto = /\bauto\b/.test(params);
      const usage = auto ? appUsage(sourceDir) : undefined;
      if (auto) {
        result.messages.push({
          type: 'dir-dependency',
          plugin: 'radix-subset',
          dir: sourceDir,
          glob: '**/*.{ts,tsx}',
          parent: result.opts.from,
        });
      }
      const listed = (name: string) => {
        const names = listOf(params, name);
        return new Set(names.includes('auto') && usage ? [...usage[name as keyof AppUsage]] : names);
      };
      const components = listed('components');
      const colors = listed('colors');
      const componentsOnly = /\bcomponents-only\b/.test(params);
      const responsive = /\bresponsive\b(?!\()/.test(params);
      const responsiveClasses = [...listed('responsive')];
      const allComponents = components.has('*');
      const allColors = colors.has('*');
      if (/\bsrgb\b/.test(options.params)) {
        root.walkAtRules('supports', (rule) => {
          if (rule.params.includes('display-p3')) rule.remove();
        });
      }
      options.remove();

      const dropped = (selector: string): boolean => {
        if (componentsOnly && !/\.rt-[A-Z]/.test(selector)) return true;
        if (!allComponents) {
          for (const [, name] of selector.matchAll(/\.rt-([A-Z][A-Za-z]*)/g)) if (name && !components.has(name)) return true;
        }
        if (!allColors) {
          for (const [, color] of selector.matchAll(/\[data-(?:accent|gray)-color=["']?([a-z]+)/g)) {
            if (color && !colors.has(color)) return true;
          }
        }
        if (/\.dark\b|\.dark-theme\b/.test(selector)) return true;
        if (responsive) return false;
        // a breakpoint variant (`.md\:rt-r-gtc`, `.sm\:rt-r-fd-row`, `.xs\:-rt-r-m-1`): kept only for the props listed
        const variants = [...selector.matchAll(/(?:^|[\s.(,])(?:xs|sm|md|lg|xl)\\:-?(rt-[a-z0-9-]+)/g)].map((m) => m[1] ?? '');
        if (variants.length === 0) return false;
        return !variants.every((name) => responsiveClasses.some((c) => name === c || name.startsWith(`${c}-`)));
      };

      if (componentsOnly) root.walkAtRules(/^(font-face|(-webkit-)?keyframes)$/, (rule) => {
        rule.remove();
      });
      root.walkRules((rule: Rule) => {
        // Keyframes' steps (from, to, 50%) are not selectors of elements.
        if (rule.parent?.type === 'atrule' && /keyframes$/.test((rule.parent as AtRule).name)) return;
        const kept = rule.selectors.filter((selector) => !dropped(selector));
        if (kept.length === 0) rule.remove();
        else if (kept.length !== rule.selectors.length) rule.selectors = kept;
      });
      root.walkDecls(/^--/, (decl) => {
        const scale = /^--([a-z]+)-(?:a?\d+|contrast|surface|indicator|track)$/.exec(decl.prop)?.[1];
        if (scale && RADIX_COLORS.has(scale) && !allColors && !colors.has(scale)) decl.remove();
      });
      removeEmpty(root);

      const after = /\bafter\(([^)]+)\)/.exec(params)?.[1]?.trim();
      if (after) {
        const file = resolve(after);
        result.messages.push({ type: 'dependency', plugin: 'radix-subset', file, parent: result.opts.from });
        withoutRepeats(root, stylesheetSubset(file, sourceDir));
        removeEmpty(root);
      }
    },
  };
}
radixSubset.postcss = true as const;

/**
 * The CSS a stylesheet of this app made of `@import`s and a `@radix-subset` line turns into (before minifying), as
 * Vite builds it: its imports inlined (package paths only), then this plugin.
 */
function stylesheetSubset(file: string, sourceDir: string): Root {
  const require = createRequire(file);
  const text = readFileSync(file, 'utf8').replace(/@import\s+['"]([^'"]+)['"]\s*;/g, (_, path: string) =>
    readFileSync(require.resolve(path), 'utf8'),
  );
  const root = postcss.parse(text, { from: file });
  const plugin = radixSubset({ sourceDir });
  const messages: Message[] = [];
  (plugin.OnceExit as (root: Root, helpers: { result: Pick<Result, 'messages' | 'opts'> }) => void)(root, {
    result: { messages, opts: { from: file } },
  });
  return root;
}

/** Removes from `root` what `earlier` (loaded before it) holds word for word, where the cascade stays the same. */
function withoutRepeats(root: Root, earlier: Root): void {
  const context = (node: Node) => {
    const parts: string[] = [];
    for (let parent = node.parent; parent && parent.type !== 'root'; parent = parent.parent) {
      if (parent.type === 'atrule') parts.push(`@${(parent as AtRule).name} ${(parent as AtRule).params}`);
    }
    return parts.join(' ');
  };
  const key = (rule: Rule) => `${context(rule)}|${rule.selector}|${rule.nodes.map((n) => n.toString()).join(';')}`;
  const isFrames = (rule: Rule) => rule.parent?.type === 'atrule' && /keyframes$/.test((rule.parent as AtRule).name);
  const ATS = /^(font-face|(-webkit-)?keyframes)$/;

  const rules = new Set<string>();
  earlier.walkRules((rule) => {
    if (!isFrames(rule)) rules.add(key(rule));
  });
  const ats = new Set<string>();
  earlier.walkAtRules(ATS, (at) => {
    ats.add(at.toString());
  });

  root.walkAtRules(ATS, (at) => {
    if (ats.has(at.toString())) at.remove();
  });
  // for each property, the specificities of the rules this stylesheet keeps that set it, so far in the file's order
  const kept = new Map<string, Set<string>>();
  root.walkRules((rule) => {
    if (isFrames(rule)) return;
    const properties = rule.nodes.flatMap((n) => (n.type === 'decl' ? [n.prop] : []));
    const specificities = rule.selectors.map(specificity);
    // an earlier kept rule decides the order against this one only at the same specificity (or one not computed)
    const ordered = (p: string) => {
      const earlier = kept.get(p);
      return !!earlier && (earlier.has(UNKNOWN) || specificities.some((s) => s === UNKNOWN || earlier.has(s)));
    };
    if (rules.has(key(rule)) && !properties.some(ordered)) {
      rule.remove();
      return;
    }
    for (const p of properties) {
      const set = kept.get(p) ?? new Set<string>();
      specificities.forEach((s) => set.add(s));
      kept.set(p, set);
    }
  });
}

const UNKNOWN = '?';

/**
 * A selector's specificity as "a,b,c" (then "::before" when it styles a pseudo-element), or UNKNOWN where this simple reading cannot tell (`:is()`, `:not()`,
 * `:has()`); `:where(...)` counts nothing. Only used to prove two rules never compete, so UNKNOWN competes with all.
 */
export function specificity(selector: string): string {
  let text = '';
  // drop every :where(...) with what it holds, brackets balanced
  for (let i = 0; i < selector.length; i++) {
    if (selector.startsWith(':where(', i)) {
      let depth = 0;
      for (i += ':where'.length; i < selector.length; i++) {
        if (selector[i] === '(') depth++;
        else if (selector[i] === ')' && --depth === 0) break;
      }
      continue;
    }
    text += selector[i];
  }
  if (/:(is|not|has|matches|-webkit-any|-moz-any)\(|\bof\b/.test(text)) return UNKNOWN;
  let [a, b, c] = [0, 0, 0];
  // a rule on an element and one on its ::before never compete
  const pseudo: string[] = [];
  text = text
    .replace(/\[[^\]]*\]/g, () => (b++, ' '))
    .replace(/::?([\w-]+)(\([^)]*\))?/g, (match: string, name: string) => {
      if (!match.startsWith('::') && !/^(before|after|first-line|first-letter)$/.test(name)) return match;
      c++;
      pseudo.push(name);
      return ' ';
    })
    .replace(/#(?:\\.|[\w-])+/g, () => (a++, ' '))
    .replace(/\.(?:\\.|[\w-])+/g, () => (b++, ' '))
    .replace(/:[\w-]+(\([^)]*\))?/g, () => (b++, ' '));
  c += [...text.matchAll(/(?:^|[\s>+~])[a-zA-Z][\w-]*/g)].length;
  return `${a},${b},${c}${pseudo.length ? `::${pseudo.sort().join('::')}` : ''}`;
}

type AppUsage = { components: Set<string>; colors: Set<string>; responsive: Set<string> };

/** What the app's source uses of Radix Themes: component classes, colour scales, responsive utility classes. */
function appUsage(sourceDir: string): AppUsage {
  const sources = sourceFiles(sourceDir)
    .filter((file) => !/\.test\.tsx?$/.test(file))
    .map((file) => readFileSync(file, 'utf8'));
  const themes = themesPackage();

  const imported = new Set<string>();
  for (const source of sources) {
    // value imports only: `import type { ... }` and `type X` name no component
    for (const [, names] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]@radix-ui\/themes['"]/g)) {
      for (const name of (names ?? '').split(',')) {
        const exported = name.trim().split(/\s+as\s+/)[0];
        if (exported && !exported.startsWith('type ')) imported.add(exported);
      }
    }
  }
  const components = new Set<string>();
  const seen = new Set<string>();
  const collect = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(file, 'utf8');
    for (const [, name] of code.matchAll(/rt-([A-Z][A-Za-z]*)/g)) if (name) components.add(name);
    for (const [, path] of code.matchAll(/from\s*"(\.{1,2}\/[^"]+\.js)"/g)) if (path) collect(join(dirname(file), path));
  };
  for (const name of imported) {
    const file = themes.exports.get(name);
    if (!file) throw new Error(`radix-subset: @radix-ui/themes has no export named ${name}`);
    collect(file);
  }

  const colors = new Set(['gray']);
  for (const source of sources) {
    for (const [, value] of source.matchAll(/\b(?:color|accentColor|grayColor)=(\{[^}]*\}|"[^"]*"|'[^']*')/g)) {
      for (const [, word] of (value ?? '').matchAll(/['"]([a-z]+)['"]/g)) if (word && RADIX_COLORS.has(word)) colors.add(word);
    }
  }

  const responsive = new Set<string>();
  for (const source of sources) {
    for (const [, prop] of source.matchAll(/\b([a-zA-Z]+)=\{\{\s*(?:initial|xs|sm|md|lg|xl)\s*:/g)) {
      const classes = prop ? themes.propClasses.get(prop) : undefined;
      if (!classes) throw new Error(`radix-subset: no Radix Themes prop named ${prop} takes responsive values`);
      classes.forEach((c) => responsive.add(c));
    }
  }
  return { components, colors, responsive };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The ESM build of @radix-ui/themes: each export's file, and each responsive prop's utility class names. */
function themesPackage(): { exports: Map<string, string>; propClasses: Map<string, Set<string>> } {
  const require = createRequire(import.meta.url);
  const root = join(dirname(require.resolve('@radix-ui/themes/package.json')), 'dist', 'esm');
  const componentsDir = join(root, 'components');
  const index = readFileSync(join(componentsDir, 'index.js'), 'utf8');
  const localFile = new Map<string, string>();
  for (const [, names, path] of index.matchAll(/import\{([^}]*)\}from"(\.\/[^"]+)"/g)) {
    for (const pair of (names ?? '').split(',')) {
      const [, local] = pair.split(/\s+as\s+/);
      localFile.set((local ?? pair).trim(), join(componentsDir, path ?? ''));
    }
  }
  // minified local names may be `$` (Popover's is)
  for (const [, local, path] of index.matchAll(/import\*as ([\w$]+) from"(\.\/[^"]+)"/g)) {
    if (local && path) localFile.set(local, join(componentsDir, path));
  }
  const exports = new Map<string, string>();
  const exportList = /export\{([^}]*)\}/.exec(index)?.[1] ?? '';
  for (const pair of exportList.split(',')) {
    const [local, exported] = pair.split(/\s+as\s+/).map((part) => part.trim());
    const file = local ? localFile.get(local) : undefined;
    if (file) exports.set(exported ?? local ?? '', file);
  }

  const propClasses = new Map<string, Set<string>>();
  for (const dir of [componentsDir, join(root, 'props')]) {
    for (const name of readdirSync(dir).filter((f) => f.endsWith('.props.js'))) {
      const code = readFileSync(join(dir, name), 'utf8');
      for (const [, prop, className] of code.matchAll(/(\w+):\{[^{}]*className:"(rt-r-[a-z-]+)"[^{}]*responsive:!0/g)) {
        if (!prop || !className) continue;
        const set = propClasses.get(prop) ?? new Set<string>();
        set.add(className);
        propClasses.set(prop, set);
      }
    }
  }
  return { exports, propClasses };
}

function listOf(params: string, name: string): string[] {
  const match = new RegExp(`${name}\\(([^)]*)\\)`).exec(params);
  return match?.[1]?.split(/\s+/).filter(Boolean) ?? [];
}

function removeEmpty(container: Container): void {
  container.each((node) => {
    if (node.type === 'rule' || node.type === 'atrule') {
      if (node.nodes) removeEmpty(node);
      if (node.nodes && node.nodes.length === 0) node.remove();
    }
  });
}

const RADIX_COLORS = new Set([
  'gray', 'mauve', 'slate', 'sage', 'olive', 'sand', 'tomato', 'red', 'ruby', 'crimson', 'pink', 'plum', 'purple',
  'violet', 'iris', 'indigo', 'blue', 'cyan', 'teal', 'jade', 'green', 'grass', 'brown', 'orange', 'sky', 'mint',
  'lime', 'yellow', 'amber', 'gold', 'bronze',
]);
