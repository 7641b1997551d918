/**
 * "Connexions en attente" on /settings (issue 47), when single sign-on is set up: provider sign-ins refused
 * because an account not linked to the provider has their email. An administrator sees both the identity and the
 * account it met, and links them (the person's account, made before single sign-on) or dismisses the request (a
 * squatted email: then rename or delete that account, and the person's next sign-in makes one of their own).
 */
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  DismissIdentityRequest,
  GetIdentityRequests,
  type IdentityRequest,
  LinkIdentityRequest,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { formatDate } from '../../i18n/dates.ts';

export function PendingSignIns() {
  const { t } = useTranslation(['settings', 'common', 'users']);
  const client = useQueryClient();
  const requests = useApiQuery(GetIdentityRequests, {});
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const settled = {
    onSuccess: (answer: { result?: string }) => setNotice({ severity: 'success', text: answer.result ?? '' }),
    onError: (error: unknown) =>
      setNotice({ severity: 'error', text: errorMessage(error, t('settings:pending.failed')) }),
    onSettled: () => client.invalidateQueries({ queryKey: callKey(GetIdentityRequests) }),
  };
  const link = useApiMutation(LinkIdentityRequest, settled);
  const dismiss = useApiMutation(DismissIdentityRequest, settled);
  const busy = link.isPending || dismiss.isPending;
  const list: IdentityRequest[] = requests.data?.res ?? [];

  return (
    <Paper variant="outlined" component="section" aria-labelledby="security-pending" sx={{ p: 3, mt: 3 }}>
      <Typography id="security-pending" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('settings:pending.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('settings:pending.help')}
      </Typography>
      {notice ? (
        <Alert severity={notice.severity} sx={{ mb: 2 }} role={notice.severity === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </Alert>
      ) : null}
      {requests.error ? (
        <Alert severity="error">{errorMessage(requests.error, t('common:errors.somethingWrong'))}</Alert>
      ) : null}
      {requests.data && list.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('settings:pending.none')}
        </Typography>
      ) : null}
      <List aria-label={t('settings:pending.title')} disablePadding>
        {list.map((request) => (
          <ListItem key={request.id} divider disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
            <ListItemText
              primary={t('settings:pending.identity', {
                name: request.name,
                email: request.email,
                provider: request.provider,
              })}
              secondary={t('settings:pending.account', {
                account: request.account.name,
                login: request.account.identifier,
                role: t(`users:form.roles.${request.account.role}` as never, { defaultValue: request.account.role }),
                date: formatDate(request.lastSeenAt),
              })}
            />
            <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, maxWidth: '100%' }}>
              <Button
                variant="contained"
                size="small"
                disabled={busy}
                onClick={() => link.mutate({ requestId: request.id })}
              >
                {t('settings:pending.link', { login: request.account.identifier })}
              </Button>
              <Button
                variant="outlined"
                size="small"
                disabled={busy}
                onClick={() => dismiss.mutate({ requestId: request.id })}
              >
                {t('settings:pending.dismiss', { email: request.email })}
              </Button>
            </Stack>
          </ListItem>
        ))}
      </List>
    </Paper>
  );
}
