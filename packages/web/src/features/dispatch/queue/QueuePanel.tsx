/**
 * "Call queue" on the dispatch console (issue 49): the open requests of the channels this user may dispatch, in
 * the server's order, with how the desk answers ("Answer by": a private call or on the channel), each request's
 * actions, a transfer's target picker and, for the dispatcher a request is transferred to, the offer to accept
 * or decline; closing asks how it ended (CloseDialog); the day's ended requests below, folded, each with who took
 * it, who closed it, how and its reference.
 */
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import Paper from '@mui/material/Paper';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { DispatchAnswer, DispatchRequest } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../api/client.ts';
import { CloseDialog } from './CloseDialog.tsx';
import { QueueRow } from './QueueRow.tsx';
import { actionsFor, type QueueAction, type QueueEntry } from './queueOrder.ts';
import { TransferDialog } from './TransferDialog.tsx';
import { TransferOfferDialog } from './TransferOfferDialog.tsx';
import { useAnswerMode } from './useAnswerMode.ts';
import type { DispatchQueue } from './useDispatchQueue.ts';
import { useNow } from './useNow.ts';

export interface QueuePanelProps {
  queue: DispatchQueue;
  selfId: number;
  /** Holds channel.dispatch everywhere (an administrator): acts on any request. */
  dispatchesAll: boolean;
  /** A request this desk took: a private call to follow, or a channel to select. */
  onTaken: (request: DispatchRequest, answer: DispatchAnswer) => void;
  /** A media query for a short screen, where the panel tightens (the console's tiles come first). */
  shortScreen?: string;
}

export function QueuePanel({ queue, selfId, dispatchesAll, onTaken, shortScreen }: QueuePanelProps) {
  const { t } = useTranslation('dispatch');
  const [answer, setAnswer] = useAnswerMode();
  const [error, setError] = useState<unknown>(null);
  const [transferring, setTransferring] = useState<DispatchRequest | null>(null);
  const [closing, setClosing] = useState<DispatchRequest | null>(null);
  const { open, ended } = queue;
  const now = useNow(open.length > 0);
  const offer: QueueEntry | undefined = open.find(
    (entry) => entry.request.state === 'transferring' && entry.request.transferTo?.userId === selfId,
  );
  const busy = queue.take.isPending || queue.sendBack.isPending || queue.close.isPending || queue.transfer.isPending;
  const onError = (failure: unknown) => setError(failure);

  const act = (action: QueueAction, request: DispatchRequest) => {
    setError(null);
    const requestId = request.requestId;
    if (action === 'take')
      queue.take.mutate({ requestId, answer }, { onError, onSuccess: ({ res }) => onTaken(res, answer) });
    else if (action === 'sendBack') queue.sendBack.mutate({ requestId }, { onError });
    else if (action === 'close') {
      queue.close.reset();
      setClosing(request);
    } else {
      queue.transfer.reset();
      setTransferring(request);
    }
  };

  return (
    <Paper
      component="section"
      aria-label={t('queue.title')}
      variant="outlined"
      sx={{ p: 2, mb: 2, borderRadius: 3, ...(shortScreen ? { [shortScreen]: { py: 1, mb: 1.5 } } : {}) }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          gap: 1.5,
          flexWrap: 'wrap',
          mb: 1,
          ...(shortScreen ? { [shortScreen]: { mb: 0.5 } } : {}),
        }}
      >
        <Typography component="h2" variant="h6" sx={{ flex: 1, display: 'flex', alignItems: 'center', gap: 1 }}>
          {t('queue.title')}
          <Chip
            size="small"
            color={open.some((entry) => entry.request.state === 'waiting') ? 'primary' : 'default'}
            label={open.length}
            aria-label={t('queue.open', { count: open.length })}
          />
        </Typography>
        <Typography variant="body2" id="queue-answer-by" sx={{ color: 'text.secondary' }}>
          {t('queue.answerBy')}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={answer}
          onChange={(_event, value: DispatchAnswer | null) => value && setAnswer(value)}
          aria-labelledby="queue-answer-by"
        >
          <ToggleButton value="private">{t('queue.answerPrivate')}</ToggleButton>
          <ToggleButton value="channel">{t('queue.answerChannel')}</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {error || queue.loadError ? (
        <Alert severity="warning" sx={{ mb: 1 }} onClose={error ? () => setError(null) : undefined}>
          {errorMessage(error ?? queue.loadError, t('queue.failed'))}
        </Alert>
      ) : null}
      {queue.loaded && open.length === 0 ? (
        <Typography sx={{ color: 'text.secondary', py: 1, ...(shortScreen ? { [shortScreen]: { py: 0 } } : {}) }}>
          {t('queue.empty')}
        </Typography>
      ) : null}
      <List dense disablePadding aria-label={t('queue.title')}>
        {open.map((entry) => (
          <QueueRow
            key={entry.request.requestId}
            entry={entry}
            now={now}
            actions={actionsFor(entry.request, selfId, dispatchesAll)}
            busy={busy}
            onAction={act}
          />
        ))}
      </List>
      {ended.length > 0 ? (
        <Accordion disableGutters elevation={0} sx={{ mt: 1, '&::before': { display: 'none' } }}>
          <AccordionSummary expandIcon={<ExpandMoreIcon />}>
            <Typography variant="subtitle2">{t('queue.ended', { count: ended.length })}</Typography>
          </AccordionSummary>
          <AccordionDetails sx={{ p: 0 }}>
            <List dense disablePadding aria-label={t('queue.ended', { count: ended.length })}>
              {ended.map((entry) => (
                <QueueRow
                  key={entry.request.requestId}
                  entry={entry}
                  now={now}
                  actions={[]}
                  busy={false}
                  onAction={act}
                />
              ))}
            </List>
          </AccordionDetails>
        </Accordion>
      ) : null}
      {transferring ? (
        <TransferDialog
          request={transferring}
          busy={queue.transfer.isPending}
          error={queue.transfer.error}
          onClose={() => setTransferring(null)}
          onTransfer={(toUserId) =>
            queue.transfer.mutate(
              { requestId: transferring.requestId, toUserId },
              { onSuccess: () => setTransferring(null) },
            )
          }
        />
      ) : null}
      {closing ? (
        <CloseDialog
          request={closing}
          busy={queue.close.isPending}
          error={queue.close.error}
          onClose={() => setClosing(null)}
          onConfirm={(how) =>
            queue.close.mutate({ requestId: closing.requestId, ...how }, { onSuccess: () => setClosing(null) })
          }
        />
      ) : null}
      {offer ? (
        <TransferOfferDialog
          key={offer.request.requestId}
          entry={offer}
          now={now}
          busy={queue.answerTransfer.isPending}
          onAnswer={(accept) =>
            queue.answerTransfer.mutate({ requestId: offer.request.requestId, accept }, { onError })
          }
        />
      ) : null}
    </Paper>
  );
}
