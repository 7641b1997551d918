import type { Report } from '@talkgroup/protocol';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { csvOf, writeXlsxSheets } from '../../engines/import-export/index.ts';
import en from '../../i18n/locales/en/reports.json';
import fr from '../../i18n/locales/fr/reports.json';
import { measureSheet, reportFileName } from './exportReport.ts';
import { displayCell, fileCell, formatDuration, weekdayNames } from './format.ts';
import { reportMeasures } from './measures.ts';

let tFr: TFunction<'reports'>;
let tEn: TFunction<'reports'>;

beforeAll(async () => {
  const instance = i18next.createInstance();
  await instance.init({ resources: { fr: { reports: fr }, en: { reports: en } }, lng: 'fr', ns: ['reports'] });
  tFr = instance.getFixedT('fr', 'reports') as TFunction<'reports'>;
  tEn = instance.getFixedT('en', 'reports') as TFunction<'reports'>;
});

const none = { count: 0, medianMs: null, p90Ms: null, maxMs: null };
const report: Report = {
  from: '2026-11-01T00:00:00.000Z',
  to: '2026-11-08T00:00:00.000Z',
  timeZone: 'Europe/Paris',
  channels: [{ id: 1, name: '=Quai' }],
  talk: {
    channels: [{ channelId: 1, channelName: '=Quai', talkMs: 4_320_000, transmissions: 12 }],
    members: [{ userId: 2, name: 'Mia', talkMs: 45_000, transmissions: 3 }],
  },
  hours: [{ day: 1, hour: 9, transmissions: 12, talkMs: 4_320_000 }],
  sos: {
    count: 2,
    acknowledged: 1,
    closed: 1,
    real: 0,
    falseAlarms: 1,
    manDown: 0,
    noResponse: 1,
    acknowledge: { count: 1, medianMs: 30_000, p90Ms: 30_000, maxMs: 30_000 },
    close: { count: 1, medianMs: 600_000, p90Ms: 600_000, maxMs: 600_000 },
    channels: [],
  },
  queue: {
    requests: 0,
    taken: 0,
    abandoned: 0,
    expired: 0,
    cancelled: 0,
    closed: 0,
    outcomes: { resolved: 0, no_action: 0, referred: 0 },
    waiting: none,
    handling: none,
    channels: [],
    dispatchers: [
      {
        userId: 7,
        name: 'Dana Desk',
        taken: 3,
        returned: 1,
        transferred: 0,
        closed: 2,
        handling: { count: 2, medianMs: 120_000, p90Ms: 300_000, maxMs: 300_000 },
      },
    ],
  },
  missed: [],
  peaks: [{ day: '2026-11-02', connected: 1234, at: '2026-11-02T08:41:00.000Z' }],
};

describe('report values', () => {
  it('read durations as hours and minutes in the language', () => {
    expect(formatDuration(4_320_000, tFr, 'fr')).toBe('1 h 12 min');
    expect(formatDuration(3_600_000, tFr, 'fr')).toBe('1 h');
    expect(formatDuration(45_000, tEn, 'en')).toBe('45 s');
    expect(formatDuration(null, tFr, 'fr')).toBe('—');
    expect(weekdayNames('fr')[0]).toBe('lundi');
  });

  it('show counts, days and times in the language and the report time zone', () => {
    const context = { t: tFr, language: 'fr', timeZone: 'Europe/Paris' };
    expect(displayCell(1234, 'count', context)).toBe('1\u202f234');
    expect(displayCell('2026-11-02T08:41:00.000Z', 'time', context)).toBe('09:41');
    expect(fileCell('2026-11-02T08:41:00.000Z', 'time', 'Europe/Paris')).toBe('2026-11-02 09:41');
    expect(fileCell(4_320_000, 'duration', 'UTC')).toBe(72);
  });

  it('write each measure as a sheet: minutes as numbers, headers saying so, texts as they are', () => {
    const measures = reportMeasures(report, tFr, 'fr');
    expect(measures.map((measure) => measure.id)).toEqual([
      'talkChannels',
      'talkMembers',
      'hours',
      'sos',
      'queue',
      'queueDispatchers',
      'missed',
      'peaks',
    ]);
    const context = { t: tFr, language: 'fr', timeZone: 'Europe/Paris', fromDay: '2026-11-01', toDay: '2026-11-07' };
    const talk = measureSheet(measures[0] as (typeof measures)[0], context);
    expect(talk.columns.map((column) => column.header)).toEqual(['Canal', 'Temps de parole (min)', 'Transmissions']);
    expect(talk.rows).toEqual([{ name: '=Quai', talkMs: 72, transmissions: 12 }]);
    const hours = measures[2];
    expect(hours?.rows[0]).toMatchObject({ day: 'lundi', h9: 12, h10: 0 });
    expect(hours?.rows).toHaveLength(7);
    expect(measures[4]?.empty).toBe(true);
    // Each dispatcher's steps (issue 58), its handling times in minutes in the files.
    const dispatchers = measureSheet(measures[5] as (typeof measures)[0], context);
    expect(dispatchers.columns.map((column) => column.header)).toEqual([
      'Répartiteur',
      'Prises',
      'Renvoyées',
      'Transférées',
      'Closes',
      'Traitement, médiane (min)',
      'Traitement, p90 (min)',
    ]);
    expect(dispatchers.rows).toEqual([
      { name: 'Dana Desk', taken: 3, returned: 1, transferred: 0, closed: 2, handlemedian: 2, handlep90: 5 },
    ]);
    expect(measures[3]?.rows[0]).toMatchObject({ name: 'Total', count: 2, acknowledged: 1, ackmedian: 30_000 });
    expect(reportFileName(context, 'xlsx')).toBe('rapport-2026-11-01-2026-11-07.xlsx');
    expect(reportFileName(context, 'csv', measures[0])).toBe(
      'rapport-temps-de-parole-par-canal-2026-11-01-2026-11-07.csv',
    );
  });

  it('write the whole report as a workbook of a sheet per measure, no text as a formula in xlsx or CSV', async () => {
    const context = { t: tFr, language: 'fr', timeZone: 'Europe/Paris', fromDay: '2026-11-01', toDay: '2026-11-07' };
    const taken = new Set<string>();
    const sheets = reportMeasures(report, tFr, 'fr').map((measure) => measureSheet(measure, context, taken));
    const ExcelJS = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await (await writeXlsxSheets(sheets)).arrayBuffer());
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual([
      'Temps de parole par canal',
      'Temps de parole par coéquipier',
      'Heures chargées',
      'Alertes SOS',
      "File d'attente du dispatch",
      "File d'attente par répartiteur",
      'Transmissions manquées par coéq',
      'Le plus de personnes connectées',
    ]);
    const cell = workbook.worksheets[0]?.getCell('A2');
    expect(cell?.type).toBe(ExcelJS.ValueType.String);
    expect(cell?.value).toBe('=Quai');
    expect(workbook.worksheets[0]?.getCell('B2').value).toBe(72);
    const talk = sheets[0] as (typeof sheets)[0];
    expect(csvOf(talk.columns, talk.rows, ';')).toContain("\r\n'=Quai;72;12\r\n");
  });
});
