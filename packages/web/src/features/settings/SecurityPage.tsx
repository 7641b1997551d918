/**
 * /settings (issue 38), administrators only, titled "Paramètres" (issue 58: a section per subject): the organisation's security policy, one switch per role
 * "Require a second factor for …". A switch shows the choice at once and is saved through setSecurityPolicy
 * (audited); a refusal puts it back and says why. Below it, the organisation's time zone (issue 50,
 * TimeZoneSection), the members' statuses (issue 49, StatusesSection), worker safety (issue 60, SafetySection)
 * live video (issue 61, VideoSection) and, for who manages them, the SIP gateways (issue 51, GatewaysSection).
 */
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { GetSecurityPolicy, GetSignInOptions, ROLES, type Role, SetSecurityPolicy } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useMay } from '../../api/session.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AliasesSection } from './AliasesSection.tsx';
import { GatewaysSection } from './GatewaysSection.tsx';
import { PendingSignIns } from './PendingSignIns.tsx';
import { SafetySection } from './SafetySection.tsx';
import { StatusesSection } from './StatusesSection.tsx';
import { TimeZoneSection } from './TimeZoneSection.tsx';
import { VideoSection } from './VideoSection.tsx';

export default function SecurityPage() {
  const { t } = useTranslation(['settings', 'common']);
  const client = useQueryClient();
  const policy = useApiQuery(GetSecurityPolicy, {});
  const signInOptions = useApiQuery(GetSignInOptions, {});
  const managesGateways = useMay().may('gateways.manage');
  const [failure, setFailure] = useState<string>();
  const [saved, setSaved] = useState(false);
  // The choice being saved, set in the click's own render (the mutation's state arrives a task later, and a
  // controlled switch would flip back meanwhile); a refusal shows the server's policy again.
  const [saving, setSaving] = useState<Role[]>();
  const save = useApiMutation(SetSecurityPolicy, {
    onSuccess: (answer) => {
      client.setQueryData(callKey(GetSecurityPolicy, {}), answer);
      setSaved(true);
    },
    onError: (error) => setFailure(errorMessage(error, t('settings:security.failed'))),
    onSettled: () => setSaving(undefined),
  });
  const required: Role[] = saving ?? policy.data?.res.requireSecondFactor ?? [];

  const toggle = (role: Role, on: boolean) => {
    setFailure(undefined);
    setSaved(false);
    const next = on ? [...required.filter((r) => r !== role), role] : required.filter((r) => r !== role);
    setSaving(next);
    save.mutate({ requireSecondFactor: next });
  };

  return (
    <>
      <PageHeader title={t('settings:title')} subtitle={t('settings:subtitle')} />
      {policy.error ? (
        <Alert severity="error">{errorMessage(policy.error, t('common:errors.somethingWrong'))}</Alert>
      ) : null}
      <Paper variant="outlined" component="section" aria-labelledby="security-second-factor" sx={{ p: 3 }}>
        <Typography id="security-second-factor" variant="h6" component="h2" sx={{ mb: 1 }}>
          {t('settings:security.secondFactor')}
        </Typography>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {t('settings:security.help')}
        </Typography>
        {failure ? (
          <Alert severity="error" sx={{ mb: 2 }}>
            {failure}
          </Alert>
        ) : null}
        <FormGroup>
          {ROLES.map((role) => (
            <FormControlLabel
              key={role}
              control={
                <Switch
                  checked={required.includes(role)}
                  disabled={!policy.data || saving !== undefined}
                  onChange={(event) => toggle(role, event.target.checked)}
                />
              }
              label={t(`settings:security.require.${role}`)}
            />
          ))}
        </FormGroup>
        <Typography role="status" variant="body2" sx={{ mt: 1, minHeight: '1.5em' }}>
          {saved ? t('common:server.security_policy_saved') : ''}
        </Typography>
      </Paper>
      <TimeZoneSection />
      <StatusesSection />
      <AliasesSection />
      {/* Issue 60: lone work, man-down, ambient listening. */}
      <SafetySection />
      {/* Issue 61: live video without the member's consent. */}
      <VideoSection />
      {managesGateways ? <GatewaysSection /> : null}
      {signInOptions.data?.sso ? <PendingSignIns /> : null}
    </>
  );
}
