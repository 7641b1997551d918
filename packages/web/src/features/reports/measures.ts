/**
 * The report's measures as tables: one column list and rows of raw values (counts, durations in milliseconds,
 * instants) per measure. The page's tables format them (format.ts), the charts read the same rows, and the
 * exports write them as numbers (durations in minutes), so that a table, its chart and its files never disagree.
 */
import type { DurationStats, Report } from '@talkgroup/protocol';
import type { TFunction } from 'i18next';
import { weekdayNames } from './format.ts';

export type MeasureId =
  | 'talkChannels'
  | 'talkMembers'
  | 'hours'
  | 'sos'
  | 'queue'
  | 'queueDispatchers'
  | 'missed'
  | 'peaks';
export const MEASURE_IDS: readonly MeasureId[] = [
  'talkChannels',
  'talkMembers',
  'hours',
  'sos',
  'queue',
  'queueDispatchers',
  'missed',
  'peaks',
];

/** text: a name; count: a whole number; duration: milliseconds; day: 'YYYY-MM-DD'; time: an ISO 8601 instant. */
export type ColumnKind = 'text' | 'count' | 'duration' | 'day' | 'time';

export interface MeasureColumn {
  key: string;
  header: string;
  kind: ColumnKind;
}

export type MeasureValue = string | number | null;
export type MeasureRow = Record<string, MeasureValue>;

export interface Measure {
  id: MeasureId;
  title: string;
  columns: MeasureColumn[];
  rows: MeasureRow[];
  /** Nothing happened in the period: the section says so instead of drawing an empty chart. */
  empty: boolean;
  emptyText: string;
}

type T = TFunction<'reports'>;

const stats = (prefix: string, value: DurationStats, keys: Array<'medianMs' | 'p90Ms' | 'maxMs'>): MeasureRow =>
  Object.fromEntries(keys.map((key) => [`${prefix}${key.replace('Ms', '')}`, value[key]]));

function talkChannels(report: Report, t: T): Measure {
  return {
    id: 'talkChannels',
    title: t('measures.talkChannels'),
    columns: [
      { key: 'name', header: t('columns.channel'), kind: 'text' },
      { key: 'talkMs', header: t('columns.talk'), kind: 'duration' },
      { key: 'transmissions', header: t('columns.transmissions'), kind: 'count' },
    ],
    rows: report.talk.channels.map((row) => ({
      name: row.channelName,
      talkMs: row.talkMs,
      transmissions: row.transmissions,
    })),
    empty: report.talk.channels.every((row) => row.transmissions === 0),
    emptyText: t('empty.talk'),
  };
}

function talkMembers(report: Report, t: T): Measure {
  return {
    id: 'talkMembers',
    title: t('measures.talkMembers'),
    columns: [
      { key: 'name', header: t('columns.member'), kind: 'text' },
      { key: 'talkMs', header: t('columns.talk'), kind: 'duration' },
      { key: 'transmissions', header: t('columns.transmissions'), kind: 'count' },
    ],
    rows: report.talk.members.map((row) => ({ name: row.name, talkMs: row.talkMs, transmissions: row.transmissions })),
    empty: report.talk.members.every((row) => row.transmissions === 0),
    emptyText: t('empty.talk'),
  };
}

/** Busy hours: a row per day of the week (Monday first), a column per hour, transmissions in each cell. */
function hours(report: Report, t: T, language: string): Measure {
  const names = weekdayNames(language);
  const rows: MeasureRow[] = names.map((name) => ({ day: name }));
  for (const cell of report.hours) {
    const row = rows[cell.day - 1];
    if (row) row[`h${cell.hour}`] = cell.transmissions;
  }
  const hourColumns = Array.from({ length: 24 }, (_, hour) => ({
    key: `h${hour}`,
    header: t('columns.hour', { hour: String(hour).padStart(2, '0') }),
    kind: 'count' as const,
  }));
  for (const row of rows) for (const column of hourColumns) row[column.key] ??= 0;
  return {
    id: 'hours',
    title: t('measures.hours'),
    columns: [{ key: 'day', header: t('columns.day'), kind: 'text' }, ...hourColumns],
    rows,
    empty: report.hours.every((cell) => cell.transmissions === 0),
    emptyText: t('empty.hours'),
  };
}

/** SOS alerts: the whole period first ('Total'), then each channel. */
function sos(report: Report, t: T): Measure {
  const { sos } = report;
  const row = (
    name: string,
    counts: { count: number; falseAlarms: number; manDown: number; noResponse: number },
    acknowledge: DurationStats,
    close: DurationStats,
  ): MeasureRow => ({
    name,
    count: counts.count,
    acknowledged: acknowledge.count,
    closed: close.count,
    falseAlarms: counts.falseAlarms,
    manDown: counts.manDown,
    noResponse: counts.noResponse,
    ...stats('ack', acknowledge, ['medianMs', 'p90Ms', 'maxMs']),
    ...stats('close', close, ['medianMs', 'p90Ms', 'maxMs']),
  });
  return {
    id: 'sos',
    title: t('measures.sos'),
    columns: [
      { key: 'name', header: t('columns.channel'), kind: 'text' },
      { key: 'count', header: t('columns.alerts'), kind: 'count' },
      { key: 'acknowledged', header: t('columns.acknowledged'), kind: 'count' },
      { key: 'closed', header: t('columns.closed'), kind: 'count' },
      { key: 'falseAlarms', header: t('columns.falseAlarms'), kind: 'count' },
      { key: 'manDown', header: t('columns.manDown'), kind: 'count' },
      { key: 'noResponse', header: t('columns.noResponse'), kind: 'count' },
      { key: 'ackmedian', header: t('columns.ackMedian'), kind: 'duration' },
      { key: 'ackp90', header: t('columns.ackP90'), kind: 'duration' },
      { key: 'ackmax', header: t('columns.ackMax'), kind: 'duration' },
      { key: 'closemedian', header: t('columns.closeMedian'), kind: 'duration' },
      { key: 'closep90', header: t('columns.closeP90'), kind: 'duration' },
      { key: 'closemax', header: t('columns.closeMax'), kind: 'duration' },
    ],
    rows: [
      row(t('total'), sos, sos.acknowledge, sos.close),
      ...sos.channels.map((channel) =>
        row(channel.channelName || t('noChannelName'), channel, channel.acknowledge, channel.close),
      ),
    ],
    empty: sos.count === 0,
    emptyText: t('empty.sos'),
  };
}

/**
 * The dispatch queue: the whole period first ('Total'), then each channel with the same columns (the rows add up
 * to the total): requests and their ends, the closes by outcome, waiting and handling times.
 */
function queue(report: Report, t: T): Measure {
  const { queue } = report;
  const row = (name: string, values: Report['queue'] | Report['queue']['channels'][number]): MeasureRow => ({
    name,
    requests: values.requests,
    taken: values.taken,
    abandoned: values.abandoned,
    expired: values.expired,
    cancelled: values.cancelled,
    closed: values.closed,
    resolved: values.outcomes.resolved,
    noAction: values.outcomes.no_action,
    referred: values.outcomes.referred,
    ...stats('wait', values.waiting, ['medianMs', 'p90Ms']),
    ...stats('handle', values.handling, ['medianMs', 'p90Ms']),
  });
  return {
    id: 'queue',
    title: t('measures.queue'),
    columns: [
      { key: 'name', header: t('columns.channel'), kind: 'text' },
      { key: 'requests', header: t('columns.requests'), kind: 'count' },
      { key: 'taken', header: t('columns.taken'), kind: 'count' },
      { key: 'abandoned', header: t('columns.abandoned'), kind: 'count' },
      { key: 'expired', header: t('columns.expired'), kind: 'count' },
      { key: 'cancelled', header: t('columns.cancelled'), kind: 'count' },
      { key: 'closed', header: t('columns.closed'), kind: 'count' },
      { key: 'resolved', header: t('columns.resolved'), kind: 'count' },
      { key: 'noAction', header: t('columns.noAction'), kind: 'count' },
      { key: 'referred', header: t('columns.referred'), kind: 'count' },
      { key: 'waitmedian', header: t('columns.waitMedian'), kind: 'duration' },
      { key: 'waitp90', header: t('columns.waitP90'), kind: 'duration' },
      { key: 'handlemedian', header: t('columns.handleMedian'), kind: 'duration' },
      { key: 'handlep90', header: t('columns.handleP90'), kind: 'duration' },
    ],
    rows: [row(t('total'), queue), ...queue.channels.map((channel) => row(channel.channelName, channel))],
    empty: queue.requests === 0 && queue.taken === 0,
    emptyText: t('empty.queue'),
  };
}

/** Each dispatcher's steps in the period (issue 58): takes, sent back, transferred, closed, handling times. */
function queueDispatchers(report: Report, t: T): Measure {
  const dispatchers = report.queue.dispatchers ?? [];
  return {
    id: 'queueDispatchers',
    title: t('measures.queueDispatchers'),
    columns: [
      { key: 'name', header: t('columns.dispatcher'), kind: 'text' },
      { key: 'taken', header: t('columns.taken'), kind: 'count' },
      { key: 'returned', header: t('columns.returned'), kind: 'count' },
      { key: 'transferred', header: t('columns.transferred'), kind: 'count' },
      { key: 'closed', header: t('columns.closed'), kind: 'count' },
      { key: 'handlemedian', header: t('columns.handleMedian'), kind: 'duration' },
      { key: 'handlep90', header: t('columns.handleP90'), kind: 'duration' },
    ],
    rows: dispatchers.map((dispatcher) => ({
      name: dispatcher.name,
      taken: dispatcher.taken,
      returned: dispatcher.returned,
      transferred: dispatcher.transferred,
      closed: dispatcher.closed,
      ...stats('handle', dispatcher.handling, ['medianMs', 'p90Ms']),
    })),
    empty: dispatchers.length === 0,
    emptyText: t('empty.queueDispatchers'),
  };
}

function missed(report: Report, t: T): Measure {
  return {
    id: 'missed',
    title: t('measures.missed'),
    columns: [
      { key: 'name', header: t('columns.member'), kind: 'text' },
      { key: 'heardLater', header: t('columns.heardLater'), kind: 'count' },
      { key: 'neverHeard', header: t('columns.neverHeard'), kind: 'count' },
    ],
    rows: report.missed.map((row) => ({ name: row.name, heardLater: row.heardLater, neverHeard: row.neverHeard })),
    empty: report.missed.length === 0,
    emptyText: t('empty.missed'),
  };
}

function peaks(report: Report, t: T): Measure {
  return {
    id: 'peaks',
    title: t('measures.peaks'),
    columns: [
      { key: 'day', header: t('columns.day'), kind: 'day' },
      { key: 'connected', header: t('columns.connected'), kind: 'count' },
      { key: 'at', header: t('columns.at'), kind: 'time' },
    ],
    rows: report.peaks.map((row) => ({ day: row.day, connected: row.connected, at: row.at })),
    empty: report.peaks.length === 0,
    emptyText: t('empty.peaks'),
  };
}

/** Every measure of a report, in the page's order. */
export function reportMeasures(report: Report, t: T, language: string): Measure[] {
  return [
    talkChannels(report, t),
    talkMembers(report, t),
    hours(report, t, language),
    sos(report, t),
    queue(report, t),
    queueDispatchers(report, t),
    missed(report, t),
    peaks(report, t),
  ];
}
