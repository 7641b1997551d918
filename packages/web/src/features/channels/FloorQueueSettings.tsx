/**
 * A channel's floor queue and pre-emption (issue 59), under its floor control: "File d'attente" (a press on a
 * busy floor waits its turn, ordered by talk priority then time; off: it is refused with the busy tone, as
 * before) and what a higher talk priority does, "Interrompre" (it takes the floor from the talker: a TETRA or
 * MCPTT pre-emptive priority call) or "File d'attente prioritaire" (it goes first in the queue; nobody is
 * cut off). Without floor control everyone may talk at once: neither applies.
 */
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { PREEMPTION_MODES, type PreemptionMode } from '@talkgroup/protocol';
import { type Control, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** The dialog's fields this part sets. */
export interface FloorQueueFields {
  floorControl: boolean;
  floorQueue: boolean;
  preemption: PreemptionMode;
}

export function FloorQueueSettings<Form extends FloorQueueFields>({ control }: { control: Control<Form> }) {
  const { t } = useTranslation('channels');
  const typed = control as unknown as Control<FloorQueueFields>;
  const { field: floorControl } = useController({ name: 'floorControl', control: typed });
  const { field: queue } = useController({ name: 'floorQueue', control: typed });
  const { field: preemption } = useController({ name: 'preemption', control: typed });
  if (!floorControl.value) return null;
  return (
    <Stack spacing={2} sx={{ pl: { sm: 2 } }}>
      <FormControlLabel
        control={
          <Switch name={queue.name} checked={queue.value} onChange={(event) => queue.onChange(event.target.checked)} />
        }
        label={t('form.floorQueue')}
      />
      <TextField
        select
        label={t('form.preemption')}
        name={preemption.name}
        value={preemption.value}
        onChange={(event) => preemption.onChange(event.target.value as PreemptionMode)}
        helperText={t(`form.preemptionHelp.${preemption.value}`)}
      >
        {PREEMPTION_MODES.map((mode) => (
          <MenuItem key={mode} value={mode}>
            {t(`form.preemptionModes.${mode}`)}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
