/**
 * /auditLog (issue 16): what administrators did, newest first — when, who, the action, its target, the
 * changed fields (before → after), the address. Filter by kind of target; pages of 25 (kept in ?page=).
 * Below it, where private calls may be audited (PRIVATE_CALLS_AUDITABLE) and the reader may export voice,
 * the private calls of a period, each one's voice exported with a reason (issue 47).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { AUDIT_TARGET_TYPES, type AuditEntry, auditActionKey, GetAuditLog } from '@talkgroup/protocol';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { useApiQuery } from '../../api/queries.ts';
import { useMay } from '../../api/session.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { type AuditNames, type ChangeWords, changeText, NO_NAMES } from './changeText.ts';
import { PrivateCallsAudit } from './PrivateCallsAudit.tsx';

const PAGE_SIZE = 25;
type TargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** A field's value as the log writes it: names for ids, "oui"/"yes" for booleans (changeText.ts). */
function useChangeWords(): ChangeWords {
  const { t } = useTranslation('audit');
  return {
    field: (field) => t(`fields.${field}` as never, { defaultValue: field }),
    yes: t('yes'),
    no: t('no'),
    colon: t('colon'),
  };
}

function Changes({ entry, names }: { entry: AuditEntry; names: AuditNames }) {
  const { t } = useTranslation('audit');
  const words = useChangeWords();
  const changes = Object.entries(entry.changes ?? {});
  if (changes.length === 0) return <>—</>;
  const shown = (value: unknown, field: string) => changeText(value, field, names, words);
  return (
    <Box component="ul" sx={{ m: 0, pl: 2 }}>
      {changes.map(([field, { before, after }]) => (
        <li key={field}>
          {field === 'passwordChanged' ? (
            t('passwordChanged')
          ) : (
            <>
              <strong>{words.field(field)}</strong>
              {words.colon}
              {before === null ? shown(after, field) : `${shown(before, field)} → ${shown(after, field)}`}
            </>
          )}
        </li>
      ))}
    </Box>
  );
}

export default function AuditPage() {
  const { t, i18n } = useTranslation(['audit', 'common']);
  const [params, setParams] = useSearchParams();
  const page = Math.max(0, (Number(params.get('page')) || 1) - 1);
  const target = AUDIT_TARGET_TYPES.find((type) => type === params.get('target'));
  const log = useApiQuery(
    GetAuditLog,
    { start: page * PAGE_SIZE, limit: PAGE_SIZE, ...(target ? { targetType: target } : {}) },
    { placeholderData: keepPreviousData },
  );
  const { may } = useMay();
  const auditableCalls = useClientConfig().data?.privateCallsAuditable === true && may('voice.manage');
  const entries = log.data?.res.entries ?? [];
  const total = log.data?.res.totalRecords ?? 0;
  const names = log.data?.res.names ?? NO_NAMES;
  /** A setting's row names it in words ("safety" reads "sécurité des travailleurs"); other targets by their name. */
  const targetNameOf = (entry: AuditEntry) =>
    entry.targetType === 'setting'
      ? t(`audit:settingNames.${entry.targetName}` as never, { defaultValue: entry.targetName ?? '' })
      : entry.targetName;
  const time = new Intl.DateTimeFormat(i18n.resolvedLanguage, { dateStyle: 'short', timeStyle: 'medium' });
  const setParam = (name: string, value: string | undefined) =>
    setParams((current) => {
      if (value) current.set(name, value);
      else current.delete(name);
      if (name !== 'page') current.delete('page');
      return current;
    });

  return (
    <Box>
      <PageHeader
        title={t('audit:title')}
        subtitle={t('audit:subtitle')}
        actions={
          <TextField
            select
            size="small"
            label={t('audit:filter.target')}
            value={target ?? ''}
            onChange={(event) => setParam('target', (event.target.value as TargetType) || undefined)}
            sx={{ minWidth: 200 }}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{t('audit:filter.all')}</MenuItem>
            {AUDIT_TARGET_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {t(`audit:targets.${type}`)}
              </MenuItem>
            ))}
          </TextField>
        }
      />
      {log.error ? <Alert severity="error">{errorMessage(log.error, t('common:errors.somethingWrong'))}</Alert> : null}
      <Paper variant="outlined">
        <TableContainer>
          <Table size="small" aria-label={t('audit:title')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('audit:columns.time')}</TableCell>
                <TableCell>{t('audit:columns.actor')}</TableCell>
                <TableCell>{t('audit:columns.action')}</TableCell>
                <TableCell>{t('audit:columns.target')}</TableCell>
                <TableCell>{t('audit:columns.changes')}</TableCell>
                <TableCell>{t('audit:columns.address')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {entries.map((entry) => (
                <TableRow key={entry.id}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{time.format(new Date(entry.createdAt))}</TableCell>
                  <TableCell>{entry.actor.name}</TableCell>
                  <TableCell>
                    {t(`audit:actions.${auditActionKey(entry.action)}` as never, { defaultValue: entry.action })}
                  </TableCell>
                  <TableCell>
                    {t(`audit:targets.${entry.targetType}` as never, { defaultValue: entry.targetType })}
                    {entry.targetName ? t('audit:targetName', { name: targetNameOf(entry) }) : ''}
                  </TableCell>
                  <TableCell>
                    <Changes entry={entry} names={names} />
                  </TableCell>
                  <TableCell>{entry.address ?? '—'}</TableCell>
                </TableRow>
              ))}
              {!log.isPending && entries.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={6}>
                    <Typography sx={{ py: 2, textAlign: 'center' }}>{t('audit:empty')}</Typography>
                  </TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </TableContainer>
        {log.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
            <CircularProgress aria-label={t('common:loading')} />
          </Box>
        ) : null}
        <TablePagination
          component="div"
          count={total}
          page={page}
          rowsPerPage={PAGE_SIZE}
          rowsPerPageOptions={[PAGE_SIZE]}
          onPageChange={(_event, next) => setParam('page', next === 0 ? undefined : String(next + 1))}
          labelDisplayedRows={({ from, to, count }) => t('audit:pager', { from, to, count })}
        />
      </Paper>
      {auditableCalls ? <PrivateCallsAudit /> : null}
    </Box>
  );
}
