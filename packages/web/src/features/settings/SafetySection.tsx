/**
 * "Sécurité des travailleurs" / "Worker safety" on /settings (issue 60): lone work (the interval between two
 * checks, the time to answer at each step, the roles and channels whose members must work with it), the
 * man-down figures /talk uses, whether ambient listening is allowed, and (issue 69) whether an SOS a dispatcher raises
 * for a member opens its microphone. Saved at once with "Save"
 * (setSafetySettings, audited); the server's sentence says what it refused (an interval under
 * LONE_WORKER_MIN_SECONDS).
 */
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  AMBIENT_LISTENING_MODES,
  EMERGENCY_OPEN_MIC_MODES,
  GetChannelOverviews,
  GetSafetySettings,
  ROLES,
  type SafetySettings,
  SetSafetySettings,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { safetyChange } from './safetyChange.ts';

const AMBIENT_LABELS = { off: 'ambientOff', announced: 'ambientAnnounced', discreet: 'ambientDiscreet' } as const;
const OPEN_MIC_LABELS = { own_alert: 'emergencyOpenMicOwn', any_alert: 'emergencyOpenMicAny' } as const;

function NumberField(props: { label: string; value: number; onChange: (value: number) => void }) {
  return (
    <TextField
      type="number"
      label={props.label}
      value={Number.isFinite(props.value) ? props.value : ''}
      onChange={(event) => props.onChange(Number(event.target.value))}
      slotProps={{ htmlInput: { min: 0, step: 1 } }}
      sx={{ flex: '1 1 240px' }}
    />
  );
}

export function SafetySection() {
  const { t } = useTranslation(['safety', 'common']);
  const client = useQueryClient();
  const stored = useApiQuery(GetSafetySettings, {});
  const channels = useApiQuery(GetChannelOverviews, {});
  const [draft, setDraft] = useState<SafetySettings>();
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (stored.data && !draft) setDraft(stored.data.res);
  }, [stored.data, draft]);
  const save = useApiMutation(SetSafetySettings, {
    onSuccess: (answer) => {
      client.setQueryData(callKey(GetSafetySettings, {}), answer);
      setDraft(answer.res);
      setSaved(true);
    },
  });
  const change = (next: (current: SafetySettings) => SafetySettings) => {
    setSaved(false);
    setDraft((current) => (current ? next(current) : current));
  };
  const lone = (field: 'intervalSeconds' | 'graceSeconds') => (value: number) =>
    change((s) => ({ ...s, loneWorker: { ...s.loneWorker, [field]: value } }));
  const manDown = (field: keyof SafetySettings['manDown']) => (value: number) =>
    change((s) => ({ ...s, manDown: { ...s.manDown, [field]: value } }));
  const channelList = channels.data?.res ?? [];

  return (
    <Paper variant="outlined" component="section" aria-labelledby="settings-safety" sx={{ p: 3, mt: 3 }}>
      <Typography id="settings-safety" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('safety:settings.title')}
      </Typography>
      <Typography variant="body2" sx={{ mb: 2 }}>
        {t('safety:settings.help')}
      </Typography>
      {stored.error || save.error ? (
        <Alert severity="error" sx={{ mb: 2 }}>
          {errorMessage(save.error ?? stored.error, t('safety:settings.failed'))}
        </Alert>
      ) : null}
      {draft ? (
        <Box
          component="form"
          onSubmit={(event) => {
            event.preventDefault();
            save.mutate(stored.data ? safetyChange(stored.data.res, draft) : draft);
          }}
          sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
        >
          <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
            {t('safety:loneWork.title')}
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
            <NumberField
              label={t('safety:settings.interval')}
              value={draft.loneWorker.intervalSeconds}
              onChange={lone('intervalSeconds')}
            />
            <NumberField
              label={t('safety:settings.grace')}
              value={draft.loneWorker.graceSeconds}
              onChange={lone('graceSeconds')}
            />
          </Box>
          <FormGroup>
            <FormLabel component="legend">{t('safety:settings.roles')}</FormLabel>
            {ROLES.map((role) => (
              <FormControlLabel
                key={role}
                label={t(`safety:settings.role.${role}`)}
                control={
                  <Checkbox
                    checked={draft.loneWorker.roles.includes(role)}
                    onChange={(event) =>
                      change((s) => ({
                        ...s,
                        loneWorker: {
                          ...s.loneWorker,
                          roles: event.target.checked
                            ? [...s.loneWorker.roles, role]
                            : s.loneWorker.roles.filter((r) => r !== role),
                        },
                      }))
                    }
                  />
                }
              />
            ))}
          </FormGroup>
          <Autocomplete
            multiple
            options={channelList.map((channel) => channel.id)}
            getOptionLabel={(id) => channelList.find((channel) => channel.id === id)?.name ?? String(id)}
            value={draft.loneWorker.channelIds}
            onChange={(_, channelIds) => change((s) => ({ ...s, loneWorker: { ...s.loneWorker, channelIds } }))}
            renderInput={(params) => <TextField {...params} label={t('safety:settings.channels')} />}
          />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2 }}>
            <NumberField
              label={t('safety:settings.stillSeconds')}
              value={draft.manDown.stillSeconds}
              onChange={manDown('stillSeconds')}
            />
            <NumberField
              label={t('safety:settings.noMotionMinutes')}
              value={draft.manDown.noMotionMinutes}
              onChange={manDown('noMotionMinutes')}
            />
            <NumberField
              label={t('safety:settings.countdownSeconds')}
              value={draft.manDown.countdownSeconds}
              onChange={manDown('countdownSeconds')}
            />
          </Box>
          <TextField
            select
            label={t('safety:settings.ambient')}
            value={draft.ambientListening}
            onChange={(event) =>
              change((s) => ({ ...s, ambientListening: event.target.value as SafetySettings['ambientListening'] }))
            }
            helperText={t('safety:settings.ambientHelp')}
            sx={{ maxWidth: 560 }}
          >
            {AMBIENT_LISTENING_MODES.map((mode) => (
              <MenuItem key={mode} value={mode}>
                {t(`safety:settings.${AMBIENT_LABELS[mode]}`)}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            label={t('safety:settings.emergencyOpenMic')}
            value={draft.emergencyOpenMic}
            onChange={(event) =>
              change((s) => ({ ...s, emergencyOpenMic: event.target.value as SafetySettings['emergencyOpenMic'] }))
            }
            helperText={t('safety:settings.emergencyOpenMicHelp')}
            sx={{ maxWidth: 560 }}
          >
            {EMERGENCY_OPEN_MIC_MODES.map((mode) => (
              <MenuItem key={mode} value={mode}>
                {t(`safety:settings.${OPEN_MIC_LABELS[mode]}`)}
              </MenuItem>
            ))}
          </TextField>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
            <Button type="submit" variant="contained" disabled={save.isPending}>
              {t('safety:settings.save')}
            </Button>
            <Typography role="status" variant="body2">
              {saved ? t('safety:settings.saved') : ''}
            </Typography>
          </Box>
        </Box>
      ) : null}
    </Paper>
  );
}
