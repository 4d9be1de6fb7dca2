import { afterEach, describe, expect, it, vi } from 'vitest';

import { blobBytes } from '@/testing/blob';

import { csvBlob, csvCell, csvText, downloadCsv } from './csv';

const utf8 = (text: string) => Array.from(new TextEncoder().encode(text));

describe('CSV files', () => {
  afterEach(() => vi.restoreAllMocks());

  it('quotes what needs quoting and disarms formulas, but writes numbers as numbers', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(2.5)).toBe('2.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(true)).toBe('true');
  });

  it('ends every line with CRLF', () => {
    expect(csvText([['Name', 'Count'], ['Zoë', 3]])).toBe('Name,Count\r\nZoë,3\r\n');
    expect(csvText([])).toBe('');
  });

  it('saves UTF-8 with the byte-order mark first, once', async () => {
    const bytes = Array.from(await blobBytes(csvBlob('Name\r\nZoë\r\n')));
    expect(bytes.slice(0, 3)).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.slice(3)).toEqual(utf8('Name\r\nZoë\r\n'));
    const again = Array.from(await blobBytes(csvBlob('\uFEFFName\r\n')));
    expect(again).toEqual([0xef, 0xbb, 0xbf, ...utf8('Name\r\n')]);
    expect(csvBlob('x').type).toBe('text/csv;charset=utf-8');
  });

  it('downloads rows as a file with that name', async () => {
    let saved: Blob | undefined;
    URL.createObjectURL = vi.fn((blob: Blob) => {
      saved = blob;
      return 'blob:csv';
    });
    URL.revokeObjectURL = vi.fn();
    let name = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      name = this.download;
    });
    downloadCsv('people.csv', [['Name'], ['Zoë']]);
    expect(name).toBe('people.csv');
    expect(Array.from(await blobBytes(saved!))).toEqual([0xef, 0xbb, 0xbf, ...utf8('Name\r\nZoë\r\n')]);
  });
});
