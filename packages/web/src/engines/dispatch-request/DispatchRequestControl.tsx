/**
 * "Appeler le dispatch" on a channel's page (/talk and the console's room), and, while the member's request is
 * open, a card in its place: its place in line and the time waited, who took it and how, a transfer; then how it
 * ended, for a few seconds. The card's sentence is a live region (role status) that stays in the page whether a
 * request is shown or not, so that a screen reader hears each change; the ticking wait is beside it, not in it.
 */
import SupportAgentIcon from '@mui/icons-material/SupportAgentOutlined';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import type { DispatchRequest } from '@talkgroup/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { visuallyHidden } from '../../components/visuallyHidden.ts';
import { DispatchRequestDialog } from './DispatchRequestDialog.tsx';
import { formatWaited, isEnded, requestSentence } from './requestSentence.ts';
import { type DispatchRequestHandle, type KnownRequest, useDispatchRequest } from './useDispatchRequest.ts';

export function DispatchRequestControl({ channelId, channelName }: { channelId: number; channelName: string }) {
  const dispatchRequest = useDispatchRequest(channelId);
  return <DispatchRequestCard channelId={channelId} channelName={channelName} dispatchRequest={dispatchRequest} />;
}

/** The button or the card, for a page that follows the request itself (useDispatchRequest) to show it elsewhere too. */
export function DispatchRequestCard({
  channelId,
  channelName,
  dispatchRequest,
}: {
  channelId: number;
  channelName: string;
  dispatchRequest: DispatchRequestHandle;
}) {
  const { t } = useTranslation('dispatchRequest');
  const { open, ended, dismiss, ask, cancel } = dispatchRequest;
  const [dialogOpen, setDialogOpen] = useState(false);
  const shown = open?.request ?? ended;

  return (
    <Box sx={{ width: '100%', maxWidth: 420, alignSelf: 'center', display: 'flex', flexDirection: 'column' }}>
      <Box
        component={shown ? 'section' : 'div'}
        aria-label={shown ? t('card.label') : undefined}
        sx={
          shown
            ? {
                p: 1.5,
                borderRadius: 2,
                border: '2px solid',
                borderColor: cardColour(shown),
                bgcolor: 'background.paper',
                display: 'flex',
                flexDirection: 'column',
                gap: 1,
              }
            : undefined
        }
      >
        {shown ? (
          <Typography
            variant="overline"
            sx={{ color: 'text.secondary', lineHeight: 1.5, display: 'flex', alignItems: 'center', gap: 0.5 }}
          >
            <SupportAgentIcon fontSize="small" />
            {t('card.label')}
          </Typography>
        ) : null}
        <Typography
          role="status"
          aria-live="polite"
          data-testid="dispatch-request-status"
          sx={shown ? { fontWeight: 700, fontSize: '1.1rem' } : visuallyHidden}
        >
          {shown ? requestSentence(t, shown) : ''}
        </Typography>
        {open ? <OpenRequestDetails known={open} /> : null}
        {open ? (
          <>
            {cancel.error ? <Alert severity="error">{errorMessage(cancel.error, t('card.cancelFailed'))}</Alert> : null}
            <Button
              variant="outlined"
              color="error"
              loading={cancel.isPending}
              onClick={() => cancel.mutate({ requestId: open.request.requestId })}
              sx={{ alignSelf: 'flex-start', minHeight: 44 }}
            >
              {t('card.cancel')}
            </Button>
          </>
        ) : null}
        {!open && ended ? (
          <Button onClick={dismiss} sx={{ alignSelf: 'flex-start', minHeight: 44 }}>
            {t('card.dismiss')}
          </Button>
        ) : null}
      </Box>
      {shown ? null : (
        <Button
          variant="outlined"
          size="large"
          startIcon={<SupportAgentIcon />}
          onClick={() => {
            ask.reset();
            setDialogOpen(true);
          }}
          sx={{ minHeight: 48 }}
        >
          {t('call')}
        </Button>
      )}
      <DispatchRequestDialog
        open={dialogOpen}
        channelName={channelName}
        pending={ask.isPending}
        error={ask.error}
        onClose={() => setDialogOpen(false)}
        onSubmit={({ priority, note }) =>
          ask.mutate({ channelId, priority, note }, { onSuccess: () => setDialogOpen(false) })
        }
      />
    </Box>
  );
}

/** Urgent and in line: red; taken or being transferred: green; over: grey. */
function cardColour(request: DispatchRequest): string {
  if (isEnded(request.state)) return 'divider';
  if (request.state !== 'waiting') return 'success.main';
  return request.priority === 'high' ? 'error.main' : 'primary.main';
}

/** The priority, the wait (ticking while in line) and the note of an open request. */
function OpenRequestDetails({ known }: { known: KnownRequest }) {
  const { t } = useTranslation('dispatchRequest');
  const { request } = known;
  const waiting = request.state === 'waiting';
  const now = useNow(waiting ? 1000 : null);
  const waited = request.waitedMs + Math.max(0, now - known.at);
  return (
    <>
      {request.priority === 'high' || waiting ? (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          {request.priority === 'high' ? <Chip size="small" color="error" label={t('card.urgent')} /> : null}
          {waiting ? (
            <Typography variant="body2" sx={{ color: 'text.secondary', fontVariantNumeric: 'tabular-nums' }}>
              {t('card.waited', { time: formatWaited(waited) })}
            </Typography>
          ) : null}
        </Box>
      ) : null}
      {request.note ? <NoteLine note={request.note} /> : null}
    </>
  );
}

function NoteLine({ note }: { note: DispatchRequest['note'] }) {
  return (
    <Typography
      variant="body2"
      sx={{ fontStyle: 'italic', overflowWrap: 'anywhere', borderLeft: '3px solid', borderColor: 'divider', pl: 1 }}
    >
      {note}
    </Typography>
  );
}

/** The clock, read again every `everyMs` (null: not ticking). */
function useNow(everyMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (everyMs === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/**
 * One line for where the card is not shown (another tab of /talk): the request's sentence while it is open or has
 * just ended, nothing otherwise; a live region too, so that a screen reader hears the take there as well.
 */
export function DispatchRequestLine({ dispatchRequest }: { dispatchRequest: DispatchRequestHandle }) {
  const { t } = useTranslation('dispatchRequest');
  const shown = dispatchRequest.open?.request ?? dispatchRequest.ended;
  return (
    <Typography
      role="status"
      aria-live="polite"
      data-testid="dispatch-request-line"
      variant="body2"
      sx={shown ? { fontWeight: 600, color: 'text.secondary', textAlign: 'center' } : visuallyHidden}
    >
      {shown ? requestSentence(t, shown) : ''}
    </Typography>
  );
}
