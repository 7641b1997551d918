/**
 * Compliance on the audit log's page (issue 47): where the server runs with PRIVATE_CALLS_AUDITABLE=true, one
 * who may export voice lists the private calls of a period (listPrivateCalls: who called whom, when, how long;
 * nothing of what was said) and exports a call's voice, giving why. Nothing is listed until asked: each
 * listing is written to the audit log, like each export.
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { GetAuditLog, type ListedPrivateCall, ListPrivateCalls, VOICE_EXPORT_PATH } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { downloadFile } from '../../api/download.ts';
import { callKey, useApiMutation } from '../../api/queries.ts';
import { CancelButton, FormDialog, SubmitButton } from '../../components/FormDialog.tsx';
import type { Notice } from '../../components/Notifier.tsx';
import { PeriodFields, usePeriod } from '../../components/PeriodFields.tsx';
import { formatDate } from '../../i18n/dates.ts';

const WEEK_MS = 7 * 24 * 3600_000;

/** 0:42, 12:05, 1:02:09; a call never answered has no length. */
export function callLength(call: Pick<ListedPrivateCall, 'answeredAt' | 'durationMs'>): string {
  if (!call.answeredAt) return '—';
  const seconds = Math.round(call.durationMs / 1000);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const pad = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

function ExportCallDialog({ call, onClose }: { call: ListedPrivateCall | null; onClose: () => void }) {
  const { t } = useTranslation('audit');
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (!call) return;
    setReason('');
    setNotice(null);
    setTried(false);
  }, [call]);
  const [caller, callee] = call?.parties ?? [];
  const parties = t('calls.parties', { caller: caller?.name, callee: callee?.name });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!call || reason.trim() === '') return;
    setBusy(true);
    try {
      // The call's own window: the server keeps what was said between its answer and its end.
      const end = call.endedAt ? Date.parse(call.endedAt) : Date.now();
      await downloadFile(
        VOICE_EXPORT_PATH,
        {
          callId: call.callId,
          reason: reason.trim(),
          from: call.startedAt,
          to: new Date(end + 2000).toISOString(),
        },
        `private-call-${call.callId}.zip`,
      );
      onClose();
    } catch (error) {
      setNotice({ severity: 'error', title: t('calls.exportFailed'), message: (error as Error).message });
    } finally {
      setBusy(false);
      // The export is in the log, done or refused after it was written.
      void client.invalidateQueries({ queryKey: callKey(GetAuditLog) });
    }
  };

  const missing = tried && reason.trim() === '';
  return (
    <FormDialog
      open={call !== null}
      onClose={onClose}
      busy={busy}
      onSubmit={submit}
      notice={notice}
      maxWidth="sm"
      title={t('calls.exportTitle')}
      actions={
        <>
          <CancelButton onClick={onClose} disabled={busy} />
          <SubmitButton busy={busy}>{t('calls.exportSubmit')}</SubmitButton>
        </>
      }
    >
      {call ? (
        <Typography sx={{ mb: 1 }}>
          {t('calls.exportCall', { parties, time: formatDate(call.startedAt), length: callLength(call) })}
        </Typography>
      ) : null}
      <TextField
        label={t('calls.reason')}
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        required
        fullWidth
        multiline
        minRows={2}
        margin="normal"
        error={missing}
        helperText={missing ? t('calls.reasonRequired') : t('calls.reasonHelp')}
        slotProps={{ htmlInput: { maxLength: 500 } }}
      />
    </FormDialog>
  );
}

export function PrivateCallsAudit() {
  const { t } = useTranslation(['audit', 'calls', 'common']);
  const client = useQueryClient();
  const period = usePeriod(true, WEEK_MS);
  const [rangeError, setRangeError] = useState(false);
  const [exporting, setExporting] = useState<ListedPrivateCall | null>(null);
  const listing = useApiMutation(ListPrivateCalls, {
    // The listing is in the log now: the table above shows it.
    onSettled: () => void client.invalidateQueries({ queryKey: callKey(GetAuditLog) }),
  });

  const list = (event: FormEvent) => {
    event.preventDefault();
    const range = period.range();
    setRangeError(range === null);
    if (range) listing.mutate({ from: range.start.toISOString(), to: range.end.toISOString() });
  };
  const calls = listing.data?.res;

  return (
    <Paper component="section" aria-labelledby="private-calls-audit" variant="outlined" sx={{ p: 2, mt: 3 }}>
      <Typography id="private-calls-audit" component="h2" variant="h6">
        {t('audit:calls.title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('audit:calls.intro')}
      </Typography>
      <Box
        component="form"
        noValidate
        onSubmit={list}
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          columnGap: 2,
          '& .MuiTextField-root': { maxWidth: 260 },
        }}
      >
        <PeriodFields period={period} fromLabel={t('audit:calls.from')} toLabel={t('audit:calls.to')} />
        <Button type="submit" variant="contained" loading={listing.isPending}>
          {t('audit:calls.list')}
        </Button>
      </Box>
      {rangeError ? <Alert severity="error">{t('audit:calls.range')}</Alert> : null}
      {listing.error ? (
        <Alert severity="error">{errorMessage(listing.error, t('common:errors.somethingWrong'))}</Alert>
      ) : null}
      {calls ? (
        <TableContainer sx={{ mt: 2 }}>
          <Table size="small" aria-label={t('audit:calls.table')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('audit:calls.columns.parties')}</TableCell>
                <TableCell>{t('audit:calls.columns.start')}</TableCell>
                <TableCell>{t('audit:calls.columns.length')}</TableCell>
                <TableCell>{t('audit:calls.columns.state')}</TableCell>
                <TableCell>{t('audit:calls.columns.export')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {calls.map((call) => {
                const [caller, callee] = call.parties;
                const parties = t('audit:calls.parties', { caller: caller?.name, callee: callee?.name });
                const time = formatDate(call.startedAt);
                return (
                  <TableRow key={call.callId}>
                    <TableCell>{parties}</TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{time}</TableCell>
                    <TableCell>{callLength(call)}</TableCell>
                    <TableCell>{t(`calls:history.state.${call.state}`)}</TableCell>
                    <TableCell>
                      <Button
                        size="small"
                        disabled={!call.answeredAt}
                        aria-label={t('audit:calls.exportLabel', { parties, time })}
                        onClick={() => setExporting(call)}
                      >
                        {t('audit:calls.export')}
                      </Button>
                    </TableCell>
                  </TableRow>
                );
              })}
              {calls.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={5}>
                    <Typography sx={{ py: 2, textAlign: 'center' }}>{t('audit:calls.none')}</Typography>
                  </TableCell>
                </TableRow>
              ) : null}
            </TableBody>
          </Table>
        </TableContainer>
      ) : null}
      {listing.data?.hasMore ? <Alert severity="info">{t('audit:calls.more')}</Alert> : null}
      <ExportCallDialog call={exporting} onClose={() => setExporting(null)} />
    </Paper>
  );
}
