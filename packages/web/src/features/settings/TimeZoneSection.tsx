/**
 * The organisation's time zone (issue 50), on /settings: the days and hours of reports. The server's until an
 * administrator chooses one among the zones this browser knows; saved on choice (setTimeZone, audited), with a
 * status line; "Use the server's" goes back to the default.
 */
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { GetTimeZone, SetTimeZone } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';

/** The IANA names this browser knows, with those given (the server's, the one set) when it lacks them. */
function zoneNames(also: string[]): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...known, 'UTC', ...also])].sort((a, b) => a.localeCompare(b));
}

export function TimeZoneSection() {
  const { t } = useTranslation(['settings', 'common']);
  const client = useQueryClient();
  const setting = useApiQuery(GetTimeZone, {});
  const [saved, setSaved] = useState(false);
  const [failure, setFailure] = useState<string>();
  // The choice being saved, shown at once (the answer replaces it).
  const [saving, setSaving] = useState<string | null>();
  const save = useApiMutation(SetTimeZone, {
    onSuccess: (answer) => {
      client.setQueryData(callKey(GetTimeZone, {}), answer);
      setSaved(true);
    },
    onError: (error) => setFailure(errorMessage(error, t('settings:timeZone.failed'))),
    onSettled: () => setSaving(undefined),
  });
  const current = setting.data?.res;
  const server = current?.serverTimeZone ?? '';
  const options = useMemo(
    () => zoneNames([server, current?.timeZone ?? ''].filter((name) => name !== '')),
    [server, current?.timeZone],
  );
  const value = saving === undefined ? current?.timeZone : (saving ?? server);

  const choose = (timeZone: string | null) => {
    setSaved(false);
    setFailure(undefined);
    setSaving(timeZone);
    save.mutate({ timeZone });
  };

  return (
    <Paper variant="outlined" component="section" aria-labelledby="settings-time-zone" sx={{ p: 3, mt: 3 }}>
      <Typography id="settings-time-zone" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('settings:timeZone.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('settings:timeZone.help')}
      </Typography>
      {setting.error || failure ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure ?? errorMessage(setting.error, t('common:errors.somethingWrong'))}
        </Alert>
      ) : null}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
        {current ? (
          <Autocomplete
            options={options}
            value={value ?? current.timeZone}
            disabled={saving !== undefined}
            disableClearable
            onChange={(_, timeZone) => {
              if (timeZone !== current.timeZone) choose(timeZone);
            }}
            noOptionsText={t('settings:timeZone.none')}
            sx={{ flex: '1 1 280px', maxWidth: 420 }}
            renderInput={(params) => (
              <TextField
                {...params}
                label={t('settings:timeZone.label')}
                helperText={t('settings:timeZone.default', { zone: server })}
              />
            )}
          />
        ) : (
          <TextField disabled label={t('settings:timeZone.label')} sx={{ flex: '1 1 280px', maxWidth: 420 }} />
        )}
        {current?.set ? (
          <Button variant="outlined" disabled={saving !== undefined} onClick={() => choose(null)} sx={{ mt: 1 }}>
            {t('settings:timeZone.useServer')}
          </Button>
        ) : null}
      </Box>
      <Typography role="status" variant="body2" sx={{ mt: 1, minHeight: '1.5em' }}>
        {saved ? t('settings:timeZone.saved') : ''}
      </Typography>
    </Paper>
  );
}
