/** The import result in three groups (spec section 2): not added, already existing, added successfully. */
import CheckIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InfoIcon from '@mui/icons-material/InfoOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportKind, Report } from './import-rows.ts';

/** Long lists are cut: the counts say everything, the names are for a glance. */
const SHOWN = 100;

function describe(kind: ImportKind, row: Record<string, unknown>): string {
  const text = (key: string) => (row[key] === null || row[key] === undefined ? '' : String(row[key]).trim());
  if (kind === 'channels') return text('name') || '—';
  const name = `${text('firstName')} ${text('lastName')}`.trim();
  return [text('identifier'), name].filter(Boolean).join(' · ') || '—';
}

function Group({
  title,
  rows,
  kind,
  color,
  icon,
}: {
  title: string;
  rows: Array<Record<string, unknown>>;
  kind: ImportKind;
  color: 'error' | 'warning' | 'success';
  icon: ReactNode;
}) {
  const { t } = useTranslation('users');
  const id = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={id}
      sx={{ p: 2, borderLeft: 4, borderLeftColor: `${color}.main`, minWidth: 0 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Box sx={{ color: `${color}.main`, display: 'flex' }}>{icon}</Box>
        <Typography id={id} variant="subtitle1" component="h3" sx={{ fontWeight: 700, flex: 1 }}>
          {title}
        </Typography>
        <Chip size="small" color={color} label={rows.length} />
      </Box>
      {rows.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('spreadsheet.none')}
        </Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 2.5, maxHeight: 240, overflowY: 'auto' }}>
          {rows.slice(0, SHOWN).map((row, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows of a finished report never move
            <Typography component="li" variant="body2" key={index} sx={{ wordBreak: 'break-word' }}>
              {describe(kind, row)}
            </Typography>
          ))}
          {rows.length > SHOWN ? (
            <Typography component="li" variant="body2" sx={{ color: 'text.secondary', listStyle: 'none' }}>
              {t('spreadsheet.more', { count: rows.length - SHOWN })}
            </Typography>
          ) : null}
        </Box>
      )}
    </Paper>
  );
}

export function ImportResult({ kind, report }: { kind: ImportKind; report: Report }) {
  const { t } = useTranslation('users');
  return (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
      <Group title={t('spreadsheet.notAdded')} rows={report.notAdded} kind={kind} color="error" icon={<ErrorIcon />} />
      <Group
        title={t('spreadsheet.alreadyExisting')}
        rows={report.alreadyExisting}
        kind={kind}
        color="warning"
        icon={<InfoIcon />}
      />
      <Group title={t('spreadsheet.added')} rows={report.added} kind={kind} color="success" icon={<CheckIcon />} />
    </Box>
  );
}
