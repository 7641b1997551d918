/**
 * "Clés d'accès" on /account (issue 38): one's passkeys (name, added, last used) with a delete button each,
 * and "Ajouter une clé d'accès", which asks the browser for a new discoverable credential. Where the browser
 * has no WebAuthn, the section says so instead of offering a button that cannot work.
 */
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import KeyIcon from '@mui/icons-material/Key';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { browserSupportsWebAuthn, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import { DeletePasskey, FinishPasskeyRegistration, GetPasskeys, StartPasskeyRegistration } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { formatDate } from '../../i18n/dates.ts';
import { AccountSection } from './AccountPage.tsx';

/** The browser's refusal (the person closed the prompt, or the key is already registered) in words. */
export function webAuthnProblem(error: unknown): 'cancelled' | 'exists' | undefined {
  if (!(error instanceof WebAuthnError)) return undefined;
  if (error.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return 'exists';
  if (error.name === 'NotAllowedError' || error.name === 'AbortError') return 'cancelled';
  return undefined;
}

export function PasskeysSection() {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const passkeys = useApiQuery(GetPasskeys, {});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error' | 'info'; text: string } | null>(null);
  const supported = browserSupportsWebAuthn();
  const refresh = () => queryClient.invalidateQueries({ queryKey: callKey(GetPasskeys) });

  const add = async () => {
    setBusy(true);
    setNotice(null);
    try {
      const options = await api(StartPasskeyRegistration, {});
      const credential = await startRegistration({ optionsJSON: options.res as never });
      const added = await api(FinishPasskeyRegistration, { credential: credential as never });
      setNotice({ severity: 'success', text: t('passkeys.added', { name: added.res.name }) });
    } catch (error) {
      const problem = webAuthnProblem(error);
      setNotice(
        problem
          ? { severity: 'info', text: t(`passkeys.${problem}`) }
          : { severity: 'error', text: errorMessage(error, t('passkeys.failed')) },
      );
    } finally {
      setBusy(false);
      void refresh();
    }
  };

  const remove = async (id: number, name: string) => {
    setNotice(null);
    try {
      await api(DeletePasskey, { id });
      setNotice({ severity: 'success', text: t('passkeys.deleted', { name }) });
    } catch (error) {
      setNotice({ severity: 'error', text: errorMessage(error, t('passkeys.failed')) });
    } finally {
      void refresh();
    }
  };

  const list = passkeys.data?.res ?? [];
  return (
    <AccountSection id="passkeys" title={t('passkeys.title')}>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('passkeys.explain')}
      </Typography>
      {notice ? (
        <Alert severity={notice.severity} sx={{ mb: 2 }} role={notice.severity === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </Alert>
      ) : null}
      {list.length === 0 && passkeys.isSuccess ? (
        <Typography sx={{ mb: 2 }}>{t('passkeys.none')}</Typography>
      ) : (
        <List aria-label={t('passkeys.title')} sx={{ mb: 1 }}>
          {list.map((passkey) => (
            <ListItem
              key={passkey.id}
              divider
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={t('passkeys.delete', { name: passkey.name })}
                  onClick={() => void remove(passkey.id, passkey.name)}
                >
                  <DeleteIcon />
                </IconButton>
              }
            >
              <ListItemIcon>
                <KeyIcon />
              </ListItemIcon>
              <ListItemText
                primary={passkey.name}
                secondary={[
                  t('passkeys.addedOn', { date: formatDate(passkey.createdAt) }),
                  passkey.lastUsedAt
                    ? t('passkeys.lastUsed', { date: formatDate(passkey.lastUsedAt) })
                    : t('passkeys.neverUsed'),
                ].join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      )}
      {supported ? (
        <Button variant="contained" startIcon={<KeyIcon />} onClick={() => void add()} disabled={busy}>
          {t('passkeys.add')}
        </Button>
      ) : (
        <Alert severity="info">{t('passkeys.unsupported')}</Alert>
      )}
    </AccountSection>
  );
}
