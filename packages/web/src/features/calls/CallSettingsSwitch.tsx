/** An administrator's switch: members may call the other members of their channels privately (audited). */
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { GetCallSettings, SetCallSettings } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useMay } from '../../api/session.ts';

export function CallSettingsSwitch() {
  const { t } = useTranslation('calls');
  const { may } = useMay();
  const client = useQueryClient();
  const settings = useApiQuery(GetCallSettings, {});
  const save = useApiMutation(SetCallSettings, {
    onSuccess: (answer) => client.setQueryData(callKey(GetCallSettings, {}), answer),
  });
  if (!may('settings.manage')) return null;
  return (
    <FormControlLabel
      control={
        <Switch
          checked={settings.data?.res.membersMayCallMembers ?? false}
          disabled={!settings.data || save.isPending}
          onChange={(event) => save.mutate({ membersMayCallMembers: event.target.checked })}
        />
      }
      label={t('settings.membersMayCall')}
    />
  );
}
