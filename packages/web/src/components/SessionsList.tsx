/**
 * Where an account is signed in (issue 38): each session's browser and system, address, how it was opened,
 * when, and when last used; this one marked "Cet appareil"; every other one with "Déconnecter". The account
 * page shows one's own; the users list shows a user's to administrators (`userId`), each with "Désactiver ce
 * terminal" too (issue 60: disableDevice, after a confirmation; the page on that device wipes itself; issue 69: the
 * notice says how many passkeys registered from it went).
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { DisableDevice, EndSession, GetSessions, type SessionInfo } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../api/client.ts';
import { callKey, useApiQuery } from '../api/queries.ts';
import { formatDate } from '../i18n/dates.ts';
import { useConfirm } from './ConfirmProvider.tsx';

export function SessionsList({ userId }: { userId?: number }) {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const body = userId === undefined ? {} : { userId };
  const sessions = useApiQuery(GetSessions, body);
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const confirm = useConfirm();

  const describe = (session: SessionInfo) =>
    [session.browser, session.system].filter(Boolean).join(' · ') || t('sessions.unknownDevice');

  const end = async (session: SessionInfo) => {
    setProblem(null);
    try {
      await api(EndSession, { sessionId: session.id });
    } catch (error) {
      setProblem(errorMessage(error, t('sessions.failed')));
    } finally {
      void queryClient.invalidateQueries({ queryKey: callKey(GetSessions) });
    }
  };

  const disable = async (session: SessionInfo) => {
    const device = describe(session);
    const sure = await confirm({
      title: t('sessions.disableTitle'),
      message: t('sessions.disableConfirm', { device }),
      confirmLabel: t('sessions.disable'),
      destructive: true,
    });
    if (!sure) return;
    setProblem(null);
    setNotice(null);
    try {
      const { res } = await api(DisableDevice, { sessionId: session.id });
      // Issue 69: the passkeys registered from that device went with it; the notice says how many.
      setNotice(
        res.passkeysRemoved > 0
          ? t('sessions.disabledPasskeys', { count: res.passkeysRemoved })
          : t('sessions.disabled'),
      );
    } catch (error) {
      setProblem(errorMessage(error, t('sessions.failed')));
    } finally {
      void queryClient.invalidateQueries({ queryKey: callKey(GetSessions) });
    }
  };

  if (sessions.isError) return <Alert severity="error">{errorMessage(sessions.error, t('sessions.failed'))}</Alert>;
  // This device first, then the others newest first (as the server gives them).
  const list = [...(sessions.data?.res ?? [])].sort((a, b) => Number(b.current) - Number(a.current));
  return (
    <>
      {problem ? (
        <Alert severity="error" role="alert" sx={{ mb: 2 }}>
          {problem}
        </Alert>
      ) : null}
      {notice ? (
        <Alert severity="success" role="status" sx={{ mb: 2 }}>
          {notice}
        </Alert>
      ) : null}
      {sessions.isSuccess && list.length === 0 ? <Typography>{t('sessions.none')}</Typography> : null}
      <List aria-label={t('sessions.title')}>
        {list.map((session) => (
          <ListItem
            key={session.id}
            divider
            data-testid="session-row"
            secondaryAction={
              session.current ? (
                <Chip color="primary" size="small" label={t('sessions.current')} />
              ) : (
                <Stack direction="row" spacing={1}>
                  <Button
                    color="error"
                    onClick={() => void end(session)}
                    aria-label={t('sessions.endNamed', { device: describe(session) })}
                  >
                    {t('sessions.end')}
                  </Button>
                  {userId !== undefined ? (
                    <Button
                      color="error"
                      variant="outlined"
                      onClick={() => void disable(session)}
                      aria-label={t('sessions.disableNamed', { device: describe(session) })}
                    >
                      {t('sessions.disable')}
                    </Button>
                  ) : null}
                </Stack>
              )
            }
            sx={{ pr: userId !== undefined ? 40 : 16 }}
          >
            <ListItemText
              primary={describe(session)}
              secondary={[
                t(`sessions.method.${session.method}`),
                session.address ?? '',
                t('sessions.signedIn', { date: formatDate(session.createdAt) }),
                session.lastUsedAt ? t('sessions.lastUsed', { date: formatDate(session.lastUsedAt) }) : '',
              ]
                .filter(Boolean)
                .join(' · ')}
            />
          </ListItem>
        ))}
      </List>
    </>
  );
}
