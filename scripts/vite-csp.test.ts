// @vitest-environment node
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { build, type Plugin } from 'vite';
import { afterAll, describe, expect, it } from 'vitest';

import { contentSecurityPolicy, cspHash, cspManifest, cspManifestPlugin, inlineScripts, type CspManifest } from './vite-csp';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** directive name → its sources */
function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((part) => {
      const [name = '', ...sources] = part.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('cspHash', () => {
  it("gives the CSP specification's own example hash", () => {
    // https://www.w3.org/TR/CSP3/#grammardef-hash-source
    expect(cspHash("alert('Hello, world.');")).toBe("'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='");
  });

  it('hashes the UTF-8 bytes, with line endings as the HTML parser leaves them (LF)', () => {
    expect(cspHash('')).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
    expect(cspHash('a\r\nb\rc')).toBe(cspHash('a\nb\nc'));
    expect(cspHash('é')).not.toBe(cspHash('e'));
  });
});

describe('inlineScripts', () => {
  it('finds the text of each script without src, whitespace included, and skips comments', () => {
    const html = [
      '<!doctype html><html><head>',
      '<script type="module" crossorigin src="/assets/index-Ab12.js"></script>',
      '<script>(function(){var p=location.pathname})()</script>',
      '<!-- <script>commented()</script> -->',
      '<SCRIPT type="module">\n  import "/x.js";\n</SCRIPT >',
      '</head><body><script src=/late.js></script></body></html>',
    ].join('\n');
    expect(inlineScripts(html)).toEqual(['(function(){var p=location.pathname})()', '\n  import "/x.js";\n']);
  });
});

describe('contentSecurityPolicy', () => {
  it("allows the page's origin, the listed scripts and nothing inline for scripts", () => {
    const policy = directives(contentSecurityPolicy({ scriptHashes: ["'sha256-abc='"], apiOrigin: null }));
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'", "'sha256-abc='"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('media-src')).toEqual(["'self'", 'blob:']);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
    expect([...policy.values()].flat()).not.toContain("'unsafe-eval'");
  });

  it('adds the API origin where the app reaches the API: requests, images and videos', () => {
    const policy = directives(contentSecurityPolicy({ scriptHashes: [], apiOrigin: 'https://api.screenroom.example' }));
    expect(policy.get('connect-src')).toEqual(["'self'", 'https://api.screenroom.example']);
    expect(policy.get('img-src')).toContain('https://api.screenroom.example');
    expect(policy.get('media-src')).toContain('https://api.screenroom.example');
    expect(policy.get('script-src')).toEqual(["'self'"]);
  });
});

describe('cspManifest', () => {
  it("lists every inline script once, and the API's origin without its path", () => {
    const html = '<script>a()</script><script src="/b.js"></script><script>a()</script>';
    const manifest = cspManifest([html, '<script>c()</script>'], ' https://api.screenroom.example/pb/ ');
    expect(manifest.scriptHashes).toEqual([cspHash('a()'), cspHash('c()')]);
    expect(manifest.apiOrigin).toBe('https://api.screenroom.example');
    expect(manifest.policy).toBe(contentSecurityPolicy(manifest));
  });
});

describe('cspManifestPlugin', () => {
  it("writes csp.json with the sha256 of the final HTML's inline scripts, those other plugins injected included", async () => {
    const root = mkdtempSync(join(tmpdir(), 'vite-csp-'));
    dirs.push(root);
    writeFileSync(
      join(root, 'index.html'),
      '<!doctype html><html><head><script>window.early = 1;</script></head>' +
        '<body><script type="module" src="/main.js"></script></body></html>',
    );
    writeFileSync(join(root, 'main.js'), 'document.body.append("hi");\n');
    writeFileSync(join(root, '.env'), 'VITE_POCKETBASE_URL=https://api.screenroom.example:8443/\n');
    // like the route preload plugin: an inline script added after Vite's own HTML transforms
    const injector: Plugin = {
      name: 'test:inject',
      transformIndexHtml: {
        order: 'post',
        handler: () => [{ tag: 'script', children: 'var t=[["^/a$",["/assets/x.js"]]];', injectTo: 'head' }],
      },
    };
    const outDir = join(root, 'dist');
    await build({
      root,
      configFile: false,
      envDir: root,
      logLevel: 'silent',
      plugins: [injector, cspManifestPlugin()],
      build: { outDir, emptyOutDir: true },
    });

    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const manifest = JSON.parse(readFileSync(join(outDir, 'csp.json'), 'utf8')) as CspManifest;
    expect(inlineScripts(html)).toHaveLength(2);
    expect(manifest.scriptHashes).toEqual([
      cspHash('window.early = 1;'),
      cspHash('var t=[["^/a$",["/assets/x.js"]]];'),
    ]);
    expect(manifest.apiOrigin).toBe('https://api.screenroom.example:8443');
    expect(directives(manifest.policy).get('script-src')).toEqual(["'self'", ...manifest.scriptHashes]);
  });
});
