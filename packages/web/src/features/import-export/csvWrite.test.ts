import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';
import { csvOf } from './csvWrite.ts';

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
});
