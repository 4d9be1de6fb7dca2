import { parse, type Node } from 'acorn';
import type { Plugin } from 'vite';

import { inlineScripts } from './vite-csp';

/**
 * Fails the build when a script it wrote holds syntax the oldest supported browser cannot parse: Safari 14.0 (iOS
 * 14.3, decisions.md "browsers"). One such expression anywhere in a chunk is a SyntaxError for the whole file, and a
 * page that never starts. esbuild lowers most syntax for `build.target`; this catches what it leaves (a regular
 * expression's lookbehind, which no target rewrites), a target changed by mistake, and the inline scripts of
 * index.html, which esbuild never sees.
 */
export function browserSyntax(): Plugin {
  return {
    name: 'screenroom-browser-syntax',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const problems: string[] = [];
      for (const file of Object.values(bundle)) {
        if (file.type === 'chunk') {
          problems.push(...unsupportedSyntax(file.code, 'module').map((problem) => `${file.fileName}: ${problem}`));
        } else if (file.fileName.endsWith('.html') && typeof file.source === 'string') {
          for (const script of inlineScripts(file.source)) {
            problems.push(...unsupportedSyntax(script, 'script').map((problem) => `${file.fileName} (inline script): ${problem}`));
          }
        }
      }
      if (problems.length > 0) {
        const more = problems.length > 20 ? `\n...and ${problems.length - 20} more` : '';
        this.error(`Syntax Safari 14 (iOS 14.3) cannot parse, see scripts/vite-browser-syntax.ts:\n${problems.slice(0, 20).join('\n')}${more}`);
      }
    },
  };
}

/** What in `code` Safari 14.0 cannot parse, one line each with its offset; empty when it parses there. */
export function unsupportedSyntax(code: string, sourceType: 'module' | 'script'): string[] {
  let program: Node;
  try {
    // ES2022 is the newest syntax acorn needs to read what Safari 14 reads (public class fields)
    program = parse(code, { ecmaVersion: 2022, sourceType });
  } catch (error) {
    return [`does not parse as ES2022 (${(error as Error).message})`];
  }
  const problems: string[] = [];
  const found = (node: Node, what: string) => problems.push(`${what} at offset ${node.start}`);
  const visit = (node: Node, inFunction: boolean) => {
    const n = node as Node & Record<string, unknown>;
    switch (node.type) {
      case 'PrivateIdentifier':
        found(node, 'a private class member (#name: Safari 14.1, private methods Safari 15)');
        break;
      case 'StaticBlock':
        found(node, 'a class static block (Safari 16.4)');
        break;
      case 'PropertyDefinition':
        if (n.static) found(node, 'a static class field (Safari 14.1)');
        break;
      case 'AwaitExpression':
        if (!inFunction) found(node, 'a top-level await (Safari 15)');
        break;
      case 'ForOfStatement':
        if (n.await && !inFunction) found(node, 'a top-level for await (Safari 15)');
        break;
      case 'Literal': {
        const regex = n.regex as { pattern: string; flags: string } | undefined;
        if (regex && /\(\?<[=!]/.test(regex.pattern)) found(node, `a regular expression lookbehind /${regex.pattern}/ (Safari 16.4)`);
        if (regex && /[dv]/.test(regex.flags)) found(node, `a regular expression flag /${regex.flags}/ (d: Safari 15, v: Safari 17)`);
        break;
      }
    }
    const nested = inFunction || /Function|^(MethodDefinition|PropertyDefinition|StaticBlock)$/.test(node.type);
    for (const value of Object.values(n)) {
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) visit(item, nested);
      } else if (isNode(value)) {
        visit(value, nested);
      }
    }
  };
  visit(program, false);
  return problems;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}
