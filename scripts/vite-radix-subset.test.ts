// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import postcss from 'postcss';
import { afterAll, describe, expect, it } from 'vitest';

import { radixSubset, specificity } from './vite-radix-subset';

const require = createRequire(import.meta.url);
const radixCss = readFileSync(require.resolve('@radix-ui/themes/styles.css'), 'utf8');

async function subset(params: string, sourceDir?: string): Promise<string> {
  const result = await postcss([radixSubset({ sourceDir })]).process(`${radixCss}\n@radix-subset ${params};`, {
    from: undefined,
  });
  return result.css;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function sourceTree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'radix-subset-'));
  dirs.push(dir);
  for (const [name, code] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), code);
  }
  return dir;
}

describe('radix-subset auto', () => {
  it('keeps the imported components, the named colours and the responsive props used, and drops the rest', async () => {
    const dir = sourceTree({
      'screen.tsx': `
        import { Slider, type SliderProps } from '@radix-ui/themes';
        export const S = () => <Slider color="tomato" gap={{ initial: '2', md: '4' }} />;
      `,
      'screen.test.tsx': `import { Table } from '@radix-ui/themes'; export const T = () => <Table.Root color="jade" />;`,
    });
    const css = await subset('components(auto) colors(auto) responsive(auto) srgb', dir);
    expect(css).toContain('.rt-SliderRoot');
    expect(css).not.toContain('.rt-TableRoot'); // only in a test file
    expect(css).not.toContain('.rt-SelectTrigger');
    expect(css).toContain('--tomato-9:');
    expect(css).toContain('--gray-9:');
    expect(css).not.toContain('--jade-9:');
    expect(css).toContain('.md\\:rt-r-gap-4');
    expect(css).not.toContain('.md\\:rt-r-gtc');
    expect(css).not.toContain('.xs\\:-rt-r-m-1');
    expect(css).not.toContain('color(display-p3');
    // utilities used without breakpoints stay
    expect(css).toContain('.rt-r-gap-4');
  });

  it('finds every namespace component, whatever its minified local name (Popover is `$`)', async () => {
    const dir = sourceTree({
      'help.tsx': `import { Popover, SegmentedControl } from '@radix-ui/themes'; export const H = () => <Popover.Root />;`,
    });
    const css = await subset('components(auto)', dir);
    expect(css).toContain('.rt-PopoverContent');
    expect(css).toContain('.rt-SegmentedControlRoot');
  });

  it('refuses a responsive value on a prop Radix Themes does not make responsive', async () => {
    const dir = sourceTree({ 'x.tsx': `export const X = () => <Box bogus={{ initial: '1', sm: '2' }} />;` });
    await expect(subset('components(auto) responsive(auto)', dir)).rejects.toThrow(/no Radix Themes prop named bogus/);
  });

  it("on the app's own source keeps every component and responsive variant its manager screens use", async () => {
    const css = await subset('components(auto) colors(auto) responsive(auto) srgb');
    for (const selector of [
      '.rt-TableRoot',
      '.rt-SelectTrigger',
      '.rt-DropdownMenuContent',
      '.rt-BaseDialogContent',
      '.rt-AvatarRoot',
      '.md\\:rt-r-gtc',
      '.sm\\:rt-r-fd-row',
      '.sm\\:rt-r-w',
    ]) {
      expect(css, selector).toContain(selector);
    }
    expect(css).toContain('--red-9:');
    expect(css).toContain('--amber-9:');
  });
});

describe('radix-subset after(...)', () => {
  const earlier = (css: string) => {
    const dir = sourceTree({ 'core.css': `${css}\n@radix-subset components(*) colors(*) responsive;\n` });
    return join(dir, 'core.css');
  };
  const run = async (css: string, core: string) =>
    (await postcss([radixSubset()]).process(`${css}\n@radix-subset components(*) colors(*) responsive after(${core});`, { from: undefined })).css;
  const rules = (css: string) => postcss.parse(css).nodes.map((n) => n.toString().replace(/\s+/g, ' '));

  it('drops what the earlier stylesheet holds word for word, unless an earlier rule of its own could then win', async () => {
    const core = earlier('.a { color: red }\n.u { color: blue }\n.v { margin: 0 }\n@keyframes k { to { opacity: 1 } }');
    const css = await run(
      '.a { color: red }\n.c { color: green }\n.c::before { margin: 1px }\n.u { color: blue }\n.v { margin: 0 }\n' +
        '.x:where(.y) { padding: 0 }\n@keyframes k { to { opacity: 1 } }\n.w { padding: 0 }',
      core,
    );
    // .a: first in the file, nothing before it can win; .v: the rule before setting margin styles a ::before;
    // the keyframes are the same
    expect(rules(css)).toEqual([
      '.c { color: green }',
      '.c::before { margin: 1px }',
      // kept: .c, earlier and of the same specificity, would otherwise come after the core's .u and win
      '.u { color: blue }',
      '.x:where(.y) { padding: 0 }',
      '.w { padding: 0 }',
    ]);
  });

  it("on the app's stylesheets keeps every component of the manager screens and drops the core's tokens", async () => {
    const core = join(process.cwd(), 'src', 'app', 'core-styles.css');
    const full = await subset('components(auto) colors(auto) responsive(auto) srgb');
    const css = await subset(`components(auto) colors(auto) responsive(auto) srgb after(${core})`);
    expect(css.length).toBeLessThan(full.length * 0.8);
    for (const selector of ['.rt-TableRoot', '.rt-SelectTrigger', '.rt-DropdownMenuContent', '.rt-BaseDialogContent']) {
      expect(css, selector).toContain(selector);
    }
    // the indigo scale is the core's: defined there, not again
    expect(full).toContain('--indigo-9:');
    expect(css).not.toContain('--indigo-9:');
  });
});

describe('specificity', () => {
  it('reads classes, attributes, pseudo-classes, types and pseudo-elements, and :where() as nothing', () => {
    expect(specificity('.rt-Button:where(.rt-variant-ghost)')).toBe('0,1,0');
    expect(specificity('[data-accent-color=indigo]')).toBe('0,1,0');
    expect(specificity('.md\\:rt-r-gtc')).toBe('0,1,0');
    expect(specificity('a:hover .x')).toBe('0,2,1');
    expect(specificity('#id .c')).toBe('1,1,0');
    expect(specificity('.rt-TableRoot :where(.rt-TableRow) td')).toBe('0,1,1');
    expect(specificity('.rt-BaseDialogOverlay:before')).toBe('0,1,1::before');
    expect(specificity('.x::-webkit-scrollbar')).toBe('0,1,1::-webkit-scrollbar');
    expect(specificity('.a:not(.b)')).toBe('?');
  });
});
