/**
 * Every console and phone page's private calls (issue 27): the ring of an incoming call with Accept and Decline
 * (full screen on a phone; a dispatcher's answer to the member's request says so, with its note: issue 58), "Calling…" with the ring-back and Cancel, the call itself once answered (loaded
 * when needed: the voice room's code), and how a call ended for the caller (declined, not answered).
 */
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useServerEvent } from '../../api/serverEvents.ts';
import { useSession } from '../../api/session.ts';
import { answerCall, callRinging, callUpdated, dismissNotice, hangUp, resumeCall, useCallState } from './callState.ts';
import { startTone } from './ringTones.ts';

const ActiveCallPanel = lazy(() => import('./ActiveCallPanel.tsx'));

export interface PrivateCallCenterProps {
  /** A phone (/talk): the ring takes the whole screen. */
  fullScreen?: boolean;
}

export function PrivateCallCenter({ fullScreen = false }: PrivateCallCenterProps) {
  const { t } = useTranslation('calls');
  const user = useSession()?.user;
  const self = user ? { id: user.id, name: user.display_name || `${user.firstName} ${user.lastName}`.trim() } : null;
  const { call, here, side, notice } = useCallState();

  useServerEvent('incomingCall', (payload) => {
    if (self) callRinging(payload, self);
  });
  useServerEvent('privateCallUpdated', (updated) => {
    if (self) callUpdated(updated, self.id);
  });
  const selfId = self?.id;
  useEffect(() => {
    if (selfId !== undefined) void resumeCall(selfId).catch(() => {});
  }, [selfId]);

  const incoming = call?.state === 'ringing' && side === 'callee';
  const outgoing = call?.state === 'ringing' && side === 'caller' && here;
  useEffect(() => {
    if (incoming) return startTone('ring');
    if (outgoing) return startTone('ringback');
    return undefined;
  }, [incoming, outgoing]);

  const noticeText = !notice
    ? ''
    : notice.kind === 'failed'
      ? t('notice.failed', { name: notice.name, reason: errorMessage(notice.error, t('notice.unknown')) })
      : t(`notice.${notice.kind}`, { name: notice.name });

  return (
    <>
      <Dialog
        open={incoming}
        fullScreen={fullScreen}
        aria-labelledby="incoming-call-title"
        aria-describedby="incoming-call-from"
        slotProps={{ paper: { sx: fullScreen ? { bgcolor: '#0f2537', color: '#fff' } : { minWidth: 340 } } }}
      >
        <DialogTitle id="incoming-call-title" sx={{ textAlign: 'center', fontWeight: 800 }}>
          {t('incoming.title')}
        </DialogTitle>
        <DialogContent
          id="incoming-call-from"
          sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1 }}
        >
          <Typography variant={fullScreen ? 'h4' : 'h6'} sx={{ textAlign: 'center' }}>
            {call ? t('incoming.from', { name: call.caller.name }) : ''}
          </Typography>
          {call?.alias ? (
            <Typography variant={fullScreen ? 'h6' : 'subtitle1'} sx={{ textAlign: 'center', fontWeight: 700 }}>
              {t('incoming.forAlias', { name: call.alias.name })}
            </Typography>
          ) : null}
          {call?.request ? (
            <>
              <Typography variant={fullScreen ? 'h6' : 'subtitle1'} sx={{ textAlign: 'center', fontWeight: 700 }}>
                {t('incoming.request')}
              </Typography>
              {call.request.note ? (
                <Typography sx={{ textAlign: 'center', fontStyle: 'italic', overflowWrap: 'anywhere' }}>
                  {t('incoming.requestNote', { note: call.request.note })}
                </Typography>
              ) : null}
            </>
          ) : null}
        </DialogContent>
        <DialogActions sx={{ justifyContent: 'center', gap: 2, pb: fullScreen ? 6 : 2 }}>
          <Button
            variant="contained"
            color="error"
            size="large"
            sx={{ minHeight: 56, minWidth: 130 }}
            onClick={() => void answerCall(false)}
          >
            {t('incoming.decline')}
          </Button>
          <Button
            variant="contained"
            color="success"
            size="large"
            sx={{ minHeight: 56, minWidth: 130 }}
            onClick={() => void answerCall(true)}
          >
            {t('incoming.accept')}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={outgoing} aria-labelledby="outgoing-call-title">
        <DialogTitle id="outgoing-call-title">{t('outgoing.title')}</DialogTitle>
        <DialogContent>
          <Typography role="status">{call ? t('outgoing.calling', { name: call.callee.name }) : ''}</Typography>
        </DialogContent>
        <DialogActions>
          <Button color="error" onClick={() => void hangUp()}>
            {t('outgoing.cancel')}
          </Button>
        </DialogActions>
      </Dialog>

      {call?.state === 'active' && here && self ? (
        <Suspense fallback={null}>
          <ActiveCallPanel call={call} self={self} fullScreen={fullScreen} />
        </Suspense>
      ) : null}

      <Snackbar
        open={notice !== null}
        onClose={(_event, reason) => {
          if (reason !== 'clickaway') dismissNotice();
        }}
        autoHideDuration={8000}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      >
        <Box>
          <Alert
            severity={notice?.kind === 'ended' ? 'info' : 'warning'}
            variant="filled"
            role="status"
            onClose={dismissNotice}
            slotProps={{ closeButton: { title: t('notice.close'), 'aria-label': t('notice.close') } }}
          >
            {noticeText}
          </Alert>
        </Box>
      </Snackbar>
    </>
  );
}
