/**
 * An administrator's switch: members may call the other members of their channels privately (audited). The
 * choice shows at once; a refusal puts it back and says why.
 */
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { GetCallSettings, SetCallSettings } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useMay } from '../../api/session.ts';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';

export function CallSettingsSwitch() {
  const { t } = useTranslation('calls');
  const { may } = useMay();
  const client = useQueryClient();
  const notify = useNotify();
  const settings = useApiQuery(GetCallSettings, {});
  // The choice being saved, set in the click's own render: the mutation's state arrives a task later, and the
  // controlled switch would flip back meanwhile.
  const [saving, setSaving] = useState<boolean>();
  const save = useApiMutation(SetCallSettings, {
    onSuccess: (answer) => client.setQueryData(callKey(GetCallSettings, {}), answer),
    onError: (error) => notify(failureNotice(t, error)),
    onSettled: () => setSaving(undefined),
  });
  if (!may('settings.manage')) return null;
  const saved = settings.data?.res.membersMayCallMembers ?? false;
  return (
    <FormControlLabel
      control={
        <Switch
          checked={saving ?? saved}
          disabled={!settings.data || saving !== undefined}
          onChange={(event) => {
            setSaving(event.target.checked);
            save.mutate({ membersMayCallMembers: event.target.checked });
          }}
        />
      }
      label={t('settings.membersMayCall')}
    />
  );
}
