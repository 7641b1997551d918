/**
 * One measure of the report: a region named by its h2, its chart and, beside it (below on narrow screens), its
 * table (a real <table> named like the section: the chart's accessible alternative, and what the files hold),
 * with its two exports, "CSV" and "Excel".
 */
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Report } from '@talkgroup/protocol';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { displayCell, type FormatContext } from './format.ts';
import type { Measure } from './measures.ts';
import { ChartFigure, ReportChart } from './ReportChart.tsx';

export interface MeasureSectionProps {
  measure: Measure;
  report: Report;
  format: FormatContext;
  onExport: (measure: Measure, format: 'csv' | 'xlsx') => void;
  busy: boolean;
}

export function MeasureSection({ measure, report, format, onExport, busy }: MeasureSectionProps) {
  const { t } = useTranslation('reports');
  const headingId = useId();
  // The busy hours' table has 25 columns: it goes under its chart at any width.
  const wide = measure.id === 'hours' || measure.id === 'sos' || measure.id === 'queue';

  return (
    <Paper
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      data-measure={measure.id}
      sx={{ p: { xs: 2, md: 3 }, mb: 3 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 2 }}>
        <Typography
          id={headingId}
          variant="h2"
          component="h2"
          sx={{ fontSize: '1.15rem', flex: 1, flexBasis: { xs: '100%', sm: 0 }, minWidth: 0 }}
        >
          {measure.title}
        </Typography>
        {(['csv', 'xlsx'] as const).map((format) => (
          <Button
            key={format}
            size="small"
            variant="outlined"
            disabled={busy}
            aria-label={t(`export.${format}Name`, { name: measure.title })}
            onClick={() => onExport(measure, format)}
          >
            {t(`export.${format}`)}
          </Button>
        ))}
      </Box>
      <Box
        sx={{
          display: 'grid',
          gap: 3,
          alignItems: 'start',
          gridTemplateColumns: wide ? 'minmax(0, 1fr)' : { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 3fr) minmax(0, 2fr)' },
        }}
      >
        <ChartFigure name={measure.title}>
          {measure.empty ? (
            <Typography sx={{ color: 'text.secondary', py: measure.id === 'hours' ? 1 : 4, textAlign: 'center' }}>
              {measure.emptyText}
            </Typography>
          ) : null}
          {/* An empty week of hours still reads as one (a grid of empty cells); an empty bar chart says nothing. */}
          {!measure.empty || measure.id === 'hours' ? <ReportChart measure={measure} report={report} /> : null}
        </ChartFigure>
        <MeasureTable measure={measure} format={format} />
      </Box>
    </Paper>
  );
}

function MeasureTable({ measure, format }: { measure: Measure; format: FormatContext }) {
  const [first, ...others] = measure.columns;
  return (
    // Focusable: a table wider or longer than its box scrolls from the keyboard too.
    <TableContainer tabIndex={0} sx={{ maxHeight: 420, overflow: 'auto' }}>
      <Table size="small" stickyHeader aria-label={measure.title}>
        <TableHead>
          <TableRow>
            {measure.columns.map((column) => (
              <TableCell
                key={column.key}
                align={column.kind === 'text' || column.kind === 'day' ? 'left' : 'right'}
                sx={{ fontWeight: 700, whiteSpace: measure.id === 'hours' ? 'nowrap' : undefined }}
              >
                {column.header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {measure.rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={measure.columns.length} sx={{ color: 'text.secondary' }}>
                {measure.emptyText}
              </TableCell>
            </TableRow>
          ) : (
            measure.rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row is its place in the report's order
              <TableRow key={index}>
                {first ? (
                  <TableCell component="th" scope="row">
                    {displayCell(row[first.key] ?? null, first.kind, format)}
                  </TableCell>
                ) : null}
                {others.map((column) => (
                  <TableCell key={column.key} align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {displayCell(row[column.key] ?? null, column.kind, format)}
                  </TableCell>
                ))}
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
