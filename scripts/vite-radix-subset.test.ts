// @vitest-environment node
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import postcss from 'postcss';
import { afterAll, describe, expect, it } from 'vitest';

import { radixSubset } from './vite-radix-subset';

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
