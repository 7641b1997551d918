/**
 * The chart of a measure, drawn by @mui/x-charts (MUI's own: the console's theme, fonts and colours) from the
 * same rows as its table: horizontal bars of talk time, stacked bars of the queue's outcomes and of missed
 * transmissions, grouped bars of the SOS times, a line of the daily peaks, and the busy hours' heat map. The
 * longest lists are cut to their first rows (the table holds them all).
 */
import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import type { Report } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { formatCount, formatDay, formatDuration } from './format.ts';
import { HeatMap } from './HeatMap.tsx';
import type { Measure, MeasureRow } from './measures.ts';

/** The most bars a horizontal chart draws (the busiest first, as getReport sorts them). */
const MAX_BARS = 12;

const num = (row: MeasureRow, key: string): number => Number(row[key] ?? 0);

export function ReportChart({ measure, report }: { measure: Measure; report: Report }) {
  const { t, i18n } = useTranslation('reports');
  const theme = useTheme();
  const language = i18n.resolvedLanguage ?? 'fr';
  const duration = (value: number | null) => formatDuration(value, t, language);
  // Durations are drawn in minutes, so that an axis's round ticks fall on whole minutes (not every 100,000 ms).
  const minutes = (ms: number | null) => (ms === null ? null : ms / 60_000);
  const fromMinutes = (value: number | null) => duration(value === null ? null : value * 60_000);
  const count = (value: number | null) => (value === null ? '' : formatCount(value, language));
  const colors = [theme.palette.primary.main, theme.palette.secondary.main, theme.palette.info.main];
  const localeText = { noData: measure.emptyText };
  const label = (key: string) => measure.columns.find((column) => column.key === key)?.header ?? key;

  switch (measure.id) {
    case 'hours':
      return <HeatMap hours={report.hours} />;
    case 'talkChannels':
    case 'talkMembers': {
      const rows = measure.rows.slice(0, MAX_BARS);
      return (
        <BarChart
          layout="horizontal"
          height={Math.max(160, 56 + rows.length * 30)}
          colors={colors}
          localeText={localeText}
          yAxis={[{ scaleType: 'band', data: rows.map((row) => String(row.name)), width: 120 }]}
          xAxis={[{ valueFormatter: (value: number) => fromMinutes(value), tickNumber: 5 }]}
          series={[
            {
              data: rows.map((row) => minutes(num(row, 'talkMs'))),
              label: label('talkMs'),
              valueFormatter: fromMinutes,
            },
          ]}
          hideLegend
        />
      );
    }
    case 'missed': {
      const rows = measure.rows.slice(0, MAX_BARS);
      return (
        <BarChart
          layout="horizontal"
          height={Math.max(180, 90 + rows.length * 30)}
          colors={[theme.palette.info.main, theme.palette.error.main]}
          localeText={localeText}
          yAxis={[{ scaleType: 'band', data: rows.map((row) => String(row.name)), width: 120 }]}
          xAxis={[{ tickMinStep: 1, valueFormatter: (value: number) => count(value) }]}
          series={['heardLater', 'neverHeard'].map((key) => ({
            data: rows.map((row) => num(row, key)),
            label: label(key),
            stack: 'missed',
            valueFormatter: count,
          }))}
        />
      );
    }
    case 'queueDispatchers': {
      const rows = measure.rows.slice(0, MAX_BARS);
      return (
        <BarChart
          layout="horizontal"
          height={Math.max(180, 90 + rows.length * 40)}
          colors={[
            theme.palette.success.main,
            theme.palette.warning.main,
            theme.palette.info.main,
            theme.palette.primary.main,
          ]}
          localeText={localeText}
          yAxis={[{ scaleType: 'band', data: rows.map((row) => String(row.name)), width: 120 }]}
          xAxis={[{ tickMinStep: 1, valueFormatter: (value: number) => count(value) }]}
          series={['taken', 'returned', 'transferred', 'closed'].map((key) => ({
            data: rows.map((row) => num(row, key)),
            label: label(key),
            valueFormatter: count,
          }))}
        />
      );
    }
    case 'sos': {
      // The channels' rows (the first is the period's total).
      const rows = measure.rows.slice(1, 1 + MAX_BARS);
      return (
        <BarChart
          height={260}
          colors={colors}
          localeText={localeText}
          xAxis={[{ scaleType: 'band', data: rows.map((row) => String(row.name)) }]}
          yAxis={[{ valueFormatter: (value: number) => fromMinutes(value), width: 72, tickNumber: 5 }]}
          series={['ackmedian', 'closemedian'].map((key) => ({
            data: rows.map((row) => (row[key] === null ? null : minutes(num(row, key)))),
            label: label(key),
            valueFormatter: fromMinutes,
          }))}
        />
      );
    }
    case 'queue': {
      const rows = measure.rows.slice(1, 1 + MAX_BARS);
      return (
        <BarChart
          height={260}
          colors={[theme.palette.success.main, theme.palette.warning.main, theme.palette.error.main]}
          localeText={localeText}
          xAxis={[{ scaleType: 'band', data: rows.map((row) => String(row.name)) }]}
          yAxis={[{ tickMinStep: 1, valueFormatter: (value: number) => count(value) }]}
          series={['taken', 'abandoned', 'expired'].map((key) => ({
            data: rows.map((row) => num(row, key)),
            label: label(key),
            stack: 'queue',
            valueFormatter: count,
          }))}
        />
      );
    }
    case 'peaks':
      return (
        <LineChart
          height={240}
          colors={colors}
          localeText={localeText}
          xAxis={[{ scaleType: 'point', data: measure.rows.map((row) => formatDay(String(row.day), language)) }]}
          yAxis={[{ tickMinStep: 1, valueFormatter: (value: number) => count(value) }]}
          series={[
            {
              data: measure.rows.map((row) => num(row, 'connected')),
              label: label('connected'),
              valueFormatter: count,
            },
          ]}
          hideLegend
        />
      );
  }
}

/** The chart's frame: a figure named "Graphique : {name}" (its table is the accessible alternative). */
export function ChartFigure({ name, children }: { name: string; children: React.ReactNode }) {
  const { t } = useTranslation('reports');
  return (
    <Box role="figure" aria-label={t('chart', { name })} sx={{ minWidth: 0 }}>
      {children}
    </Box>
  );
}
