/**
 * "Vidéo en direct" / "Live video" on /settings (issue 61 item 2): "Vidéo sans consentement" / "Video without
 * consent", whether a dispatcher's video request starts the member's camera without asking (the phone then says it
 * is being watched). Saved on change (setVideoSettings, audited), with the server's sentence.
 */
import Alert from '@mui/material/Alert';
import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { GetVideoSettings, SetVideoSettings } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';

export function VideoSection() {
  const { t } = useTranslation(['video', 'common']);
  const client = useQueryClient();
  const stored = useApiQuery(GetVideoSettings, {});
  const [saved, setSaved] = useState(false);
  const save = useApiMutation(SetVideoSettings, {
    onSuccess: (answer) => {
      client.setQueryData(callKey(GetVideoSettings, {}), answer);
      setSaved(true);
    },
  });
  const withoutConsent =
    (save.isPending ? save.variables?.remoteVideo : stored.data?.res.remoteVideo) === 'without_consent';
  return (
    <Paper variant="outlined" component="section" aria-labelledby="settings-video" sx={{ p: 3, mt: 3 }}>
      <Typography id="settings-video" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('video:settings.title')}
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={withoutConsent}
            disabled={!stored.data || save.isPending}
            onChange={(event) => {
              setSaved(false);
              save.mutate({ remoteVideo: event.target.checked ? 'without_consent' : 'consent' });
            }}
          />
        }
        label={t('video:settings.withoutConsent')}
      />
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
        {t('video:settings.help')}
      </Typography>
      {save.error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(save.error, t('video:settings.failed'))}
        </Alert>
      ) : null}
      {saved ? (
        <Alert severity="success" role="status" sx={{ mt: 2 }}>
          {t('common:server.video_settings_saved')}
        </Alert>
      ) : null}
    </Paper>
  );
}
