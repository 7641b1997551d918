/**
 * "Clés d'accès" on /account (issue 38): one's passkeys (name, added, last used) with a delete button each,
 * and "Ajouter une clé d'accès", which asks the browser for a new discoverable credential. Where the browser
 * has no WebAuthn, the section says so instead of offering a button that cannot work; where the server has no
 * PUBLIC_URL (passkeys off, issue 47), it says that instead. Adding and deleting ask "Confirm it's you" when the
 * server answers `confirm_identity` (at the start or the finish of an addition), then go on by themselves. A
 * passkey that does not verify its user says it is one step only.
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
import { markSecondFactorSetup } from '../../api/session.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { useConfirmedAction } from '../../components/confirm-identity/useConfirmedAction.tsx';
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
  const on = useClientConfig().data?.passkeys;
  const passkeys = useApiQuery(GetPasskeys, {}, { enabled: on === true });
  const confirmed = useConfirmedAction();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error' | 'info'; text: string } | null>(null);
  const supported = browserSupportsWebAuthn();
  const refresh = () => queryClient.invalidateQueries({ queryKey: callKey(GetPasskeys) });

  const add = async () => {
    setBusy(true);
    setNotice(null);
    try {
      // Either step may ask "Confirm it's you" first (undefined: the person gave up).
      const options = await confirmed.run(() => api(StartPasskeyRegistration, {}));
      if (!options) return;
      const credential = await startRegistration({ optionsJSON: options.res as never });
      const added = await confirmed.run(() => api(FinishPasskeyRegistration, { credential: credential as never }));
      if (!added) return;
      // A passkey that verifies its user is a second factor: a session held for one reaches the app again.
      if (added.res.userVerified) markSecondFactorSetup(false);
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
      if (!(await confirmed.run(() => api(DeletePasskey, { id })))) return;
      setNotice({ severity: 'success', text: t('passkeys.deleted', { name }) });
    } catch (error) {
      setNotice({ severity: 'error', text: errorMessage(error, t('passkeys.failed')) });
    } finally {
      void refresh();
    }
  };

  const list = passkeys.data?.res ?? [];
  if (on === false)
    return (
      <AccountSection id="passkeys" title={t('passkeys.title')}>
        <Alert severity="info">{t('passkeys.off')}</Alert>
      </AccountSection>
    );
  return (
    <AccountSection id="passkeys" title={t('passkeys.title')}>
      {confirmed.dialog}
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
                  ...(passkey.userVerified ? [] : [t('passkeys.unverified')]),
                ].join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      )}
      {supported ? (
        <Button variant="contained" startIcon={<KeyIcon />} onClick={() => void add()} disabled={busy || !on}>
          {t('passkeys.add')}
        </Button>
      ) : (
        <Alert severity="info">{t('passkeys.unsupported')}</Alert>
      )}
    </AccountSection>
  );
}
