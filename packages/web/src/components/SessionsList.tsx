/**
 * Where an account is signed in (issue 38): each session's browser and system, address, how it was opened,
 * when, and when last used; this one marked "Cet appareil"; every other one with "Déconnecter". The account
 * page shows one's own; the users list shows a user's to administrators (`userId`).
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { EndSession, GetSessions, type SessionInfo } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../api/client.ts';
import { callKey, useApiQuery } from '../api/queries.ts';
import { formatDate } from '../i18n/dates.ts';

export function SessionsList({ userId }: { userId?: number }) {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const body = userId === undefined ? {} : { userId };
  const sessions = useApiQuery(GetSessions, body);
  const [problem, setProblem] = useState<string | null>(null);

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
                <Button
                  color="error"
                  onClick={() => void end(session)}
                  aria-label={t('sessions.endNamed', { device: describe(session) })}
                >
                  {t('sessions.end')}
                </Button>
              )
            }
            sx={{ pr: 16 }}
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
