/**
 * "Sécurité des travailleurs" / "Worker safety" on /settings (issue 60): lone work (the interval between two
 * checks, the time to answer at each step, the roles and channels whose members must work with it), the
 * man-down figures /talk uses, whether ambient listening is allowed, and (issue 69) whether an SOS a dispatcher raises
 * for a member opens its microphone. Saved at once with "Save"
 * (setSafetySettings, audited). Each figure shows its bounds (the server's LONE_WORKER_MIN_SECONDS among them), and a
 * refused save marks its field with what to change (the 400's `fields`, issue 70). Choosing discreet ambient listening
 * shows its legal notice, as "Vidéo sans consentement" does.
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
  LONE_WORKER_MAX_SECONDS,
  MAN_DOWN_LIMITS,
  ROLES,
  type SafetySettings,
  SetSafetySettings,
} from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorMessage } from '../../api/client.ts';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { type Bounds, type FieldWords, useFieldWords } from './bounds.ts';
import { safetyChange } from './safetyChange.ts';

const AMBIENT_LABELS = { off: 'ambientOff', announced: 'ambientAnnounced', discreet: 'ambientDiscreet' } as const;
const OPEN_MIC_LABELS = { own_alert: 'emergencyOpenMicOwn', any_alert: 'emergencyOpenMicAny' } as const;

function NumberField(props: {
  label: string;
  value: number;
  onChange: (value: number) => void;
  bounds: Bounds;
  words: FieldWords;
}) {
  return (
    <TextField
      type="number"
      label={props.label}
      value={Number.isFinite(props.value) ? props.value : ''}
      onChange={(event) => props.onChange(Number(event.target.value))}
      error={props.words.error}
      helperText={props.words.helperText}
      slotProps={{ htmlInput: { min: props.bounds.min ?? 0, max: props.bounds.max, step: 1 } }}
      sx={{ flex: '1 1 240px' }}
    />
  );
}

export function SafetySection() {
  const { t } = useTranslation(['safety', 'settings', 'common']);
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
  const wordsOf = useFieldWords();
  const change = (next: (current: SafetySettings) => SafetySettings) => {
    setSaved(false);
    setDraft((current) => (current ? next(current) : current));
  };
  // A refusal's marks are about the figures as they were: editing one takes them away, another choice does not.
  const lone = (field: 'intervalSeconds' | 'graceSeconds') => (value: number) => {
    save.reset();
    change((s) => ({ ...s, loneWorker: { ...s.loneWorker, [field]: value } }));
  };
  const manDown = (field: keyof SafetySettings['manDown']) => (value: number) => {
    save.reset();
    change((s) => ({ ...s, manDown: { ...s.manDown, [field]: value } }));
  };
  const channelList = channels.data?.res ?? [];
  const loneBounds: Bounds = {
    min: stored.data?.loneWorkerMinSeconds ?? 1,
    max: LONE_WORKER_MAX_SECONDS,
    unit: 'seconds',
  };
  const manDownBounds = (field: keyof typeof MAN_DOWN_LIMITS): Bounds => ({
    ...MAN_DOWN_LIMITS[field],
    unit: field === 'noMotionMinutes' ? 'minutes' : 'seconds',
  });
  /** A figure's field, its bounds beside it and the refusal's words when the last save was refused for it. */
  const figure = (path: string, label: string, value: number, bounds: Bounds, onChange: (value: number) => void) => (
    <NumberField
      label={label}
      value={value}
      onChange={onChange}
      bounds={bounds}
      words={wordsOf(path, bounds, save.error)}
    />
  );
  const refusedFields = save.error instanceof ApiError && save.error.fields.length > 0;

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
          {refusedFields
            ? t('settings:bounds.fixFields')
            : errorMessage(save.error ?? stored.error, t('safety:settings.failed'))}
        </Alert>
      ) : null}
      {draft ? (
        <Box
          component="form"
          // The browser's own bubble would stop the save in English and out of sight: the field says it instead.
          noValidate
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
            {figure(
              'loneWorker.intervalSeconds',
              t('safety:settings.interval'),
              draft.loneWorker.intervalSeconds,
              loneBounds,
              lone('intervalSeconds'),
            )}
            {figure(
              'loneWorker.graceSeconds',
              t('safety:settings.grace'),
              draft.loneWorker.graceSeconds,
              loneBounds,
              lone('graceSeconds'),
            )}
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
            {figure(
              'manDown.stillSeconds',
              t('safety:settings.stillSeconds'),
              draft.manDown.stillSeconds,
              manDownBounds('stillSeconds'),
              manDown('stillSeconds'),
            )}
            {figure(
              'manDown.noMotionMinutes',
              t('safety:settings.noMotionMinutes'),
              draft.manDown.noMotionMinutes,
              manDownBounds('noMotionMinutes'),
              manDown('noMotionMinutes'),
            )}
            {figure(
              'manDown.countdownSeconds',
              t('safety:settings.countdownSeconds'),
              draft.manDown.countdownSeconds,
              manDownBounds('countdownSeconds'),
              manDown('countdownSeconds'),
            )}
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
          {draft.ambientListening === 'discreet' ? (
            <Alert severity="warning" sx={{ maxWidth: 720 }}>
              {t('safety:settings.ambientDiscreetNotice')}
            </Alert>
          ) : null}
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
