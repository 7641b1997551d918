import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv.ts';
import { canonicalRow, chunks, invalidCells, withoutDuplicates } from './import-rows.ts';
import { plainCell, recordsToSheet } from './workbook.ts';

describe('CSV reading', () => {
  it('reads semicolon files with quoted fields, doubled quotes, CRLF and a BOM', () => {
    const text = '\uFEFFfirstName;lastName;canal\r\nAnne;"Dupont ""A""";"Alpha;Bravo"\r\n\r\nLuc;Martin;\r\n';
    expect(parseCsv(text)).toEqual([
      ['firstName', 'lastName', 'canal'],
      ['Anne', 'Dupont "A"', 'Alpha;Bravo'],
      ['Luc', 'Martin', ''],
    ]);
  });

  it('guesses a comma delimiter when the header has commas', () => {
    expect(parseCsv('name,other\nA,B')).toEqual([
      ['name', 'other'],
      ['A', 'B'],
    ]);
  });
});

describe('sheet rows', () => {
  it('keys rows by the trimmed header and drops blank rows and unnamed columns', () => {
    expect(
      recordsToSheet([
        [' name ', null, 'x'],
        ['Alpha', 'ignored', 1],
        [null, '', '  '],
      ]),
    ).toEqual({ columns: ['name', 'x'], rows: [{ name: 'Alpha', x: 1 }] });
  });

  it('turns rich text, hyperlinks and formula results into plain values', () => {
    expect(plainCell({ richText: [{ text: 'Ann' }, { text: 'e' }] })).toBe('Anne');
    expect(plainCell({ text: 'a@b.fr', hyperlink: 'mailto:a@b.fr' })).toBe('a@b.fr');
    expect(plainCell({ formula: '1+1', result: 2 })).toBe(2);
  });
});

describe('import rows', () => {
  it("names any column containing 'canal' canal and matches headers regardless of case", () => {
    expect(canonicalRow('users', { FirstName: 'A', 'Nom du canal': 'X;Y' })).toEqual({ firstName: 'A', canal: 'X;Y' });
  });

  it('marks blank required cells and unknown mapRight spellings, but accepts vrai/FAUX', () => {
    const row = {
      firstName: 'A',
      lastName: ' ',
      identifier: 'a@b.fr',
      pseudo: 'a',
      password: 'pw',
      mapRight: 'peut-être',
    };
    expect([...invalidCells('users', row)].sort()).toEqual(['lastName', 'mapRight']);
    expect(invalidCells('users', { ...row, lastName: 'B', mapRight: 'vrai' }).size).toBe(0);
    expect(invalidCells('users', { ...row, lastName: 'B', mapRight: 'FAUX' }).size).toBe(0);
    expect([...invalidCells('channels', { name: '' })]).toEqual(['name']);
  });

  it('removes exact duplicates and keeps rows that differ in one field', () => {
    const row = { firstName: 'A', lastName: 'B', identifier: 'a@b.fr', pseudo: 'a', password: 'pw', mapRight: 'true' };
    expect(withoutDuplicates('users', [row, { ...row }, { ...row, pseudo: 'b' }])).toHaveLength(2);
    expect(withoutDuplicates('channels', [{ name: 'X' }, { name: 'X ' }, { name: 'Y' }])).toHaveLength(2);
  });

  it('splits rows into chunks of the given size', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});
