/**
 * "Connexion unique" on /account (issue 47), when the server has an identity provider: the identity linked to
 * the account, with "Délier {provider}", or "Lier {provider}", which goes through the provider and comes back
 * here (#sso_linked, or ?sso_error=<code>). Both ask to confirm it is you first when the session's last proof
 * is older than 5 minutes.
 */
import LinkIcon from '@mui/icons-material/Link';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import {
  GetIdentityLinks,
  GetSignInOptions,
  SSO_ERROR_CODES,
  StartOidcLink,
  UnlinkIdentity,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, errorMessage } from '../../api/client.ts';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useConfirmedAction } from '../../components/confirm-identity/useConfirmedAction.tsx';
import { formatDate } from '../../i18n/dates.ts';
import { AccountSection } from './AccountPage.tsx';

type Notice = { severity: 'success' | 'error' | 'info'; text: string };

/** How the provider's trip ended, from the address it came back to: a link made, a confirmation, or why not. */
function arrival(): { error: string } | 'linked' | 'confirmed' | null {
  const error = new URLSearchParams(window.location.search).get('sso_error');
  if (error !== null) return { error: SSO_ERROR_CODES.find((code) => code === error) ?? 'failed' };
  if (window.location.hash === '#sso_linked') return 'linked';
  if (window.location.hash === '#confirmed') return 'confirmed';
  return null;
}

export function SsoSection() {
  const options = useApiQuery(GetSignInOptions, {});
  const name = options.data?.sso?.name;
  return name ? <SsoLink provider={name} /> : null;
}

function SsoLink({ provider }: { provider: string }) {
  const { t } = useTranslation(['account', 'auth']);
  const queryClient = useQueryClient();
  const links = useApiQuery(GetIdentityLinks, {});
  const [notice, setNotice] = useState<Notice | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmed = useConfirmedAction();

  // The address says how the trip ended once: the notice stays, the address is cleaned.
  useEffect(() => {
    const came = arrival();
    if (!came) return;
    if (came === 'linked') setNotice({ severity: 'success', text: t('account:sso.linked', { provider }) });
    else if (came === 'confirmed') setNotice({ severity: 'info', text: t('account:sso.confirmed') });
    else
      setNotice({
        severity: 'error',
        text: t(`auth:sso.errors.${came.error}` as 'auth:sso.errors.failed', { name: provider }),
      });
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }, [provider, t]);

  const link = async () => {
    setBusy(true);
    setNotice(null);
    try {
      const trip = await confirmed.run(() => api(StartOidcLink, {}));
      if (trip) window.location.assign(trip.res.url);
      else setBusy(false);
    } catch (error) {
      setNotice({ severity: 'error', text: errorMessage(error, t('account:sso.failed')) });
      setBusy(false);
    }
  };

  const unlink = async (linkId: number) => {
    setBusy(true);
    setNotice(null);
    try {
      const done = await confirmed.run(() => api(UnlinkIdentity, { linkId }));
      if (done) setNotice({ severity: 'success', text: t('account:sso.unlinked', { provider }) });
    } catch (error) {
      setNotice({ severity: 'error', text: errorMessage(error, t('account:sso.failed')) });
    } finally {
      setBusy(false);
      void queryClient.invalidateQueries({ queryKey: callKey(GetIdentityLinks) });
    }
  };

  const list = links.data?.res ?? [];
  return (
    <AccountSection id="sso" title={t('account:sso.title')}>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('account:sso.explain', { provider })}
      </Typography>
      {notice ? (
        <Alert severity={notice.severity} role={notice.severity === 'error' ? 'alert' : 'status'} sx={{ mb: 2 }}>
          {notice.text}
        </Alert>
      ) : null}
      {list.length > 0 ? (
        <List aria-label={t('account:sso.title')} disablePadding>
          {list.map((each) => (
            <ListItem
              key={each.id}
              disableGutters
              secondaryAction={
                <Button variant="outlined" color="error" disabled={busy} onClick={() => void unlink(each.id)}>
                  {t('account:sso.unlink', { provider: each.provider })}
                </Button>
              }
            >
              <ListItemIcon>
                <LinkIcon />
              </ListItemIcon>
              <ListItemText
                primary={t('account:sso.linkedTo', { provider: each.provider, email: each.email ?? '' })}
                secondary={t('account:sso.since', { date: formatDate(each.createdAt) })}
              />
            </ListItem>
          ))}
        </List>
      ) : links.data ? (
        <Button variant="contained" startIcon={<LinkIcon />} disabled={busy} onClick={() => void link()}>
          {t('account:sso.link', { provider })}
        </Button>
      ) : null}
      {confirmed.dialog}
    </AccountSection>
  );
}
