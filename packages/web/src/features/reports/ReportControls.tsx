/**
 * What the report covers: the period ("Aujourd'hui", "7 jours", "30 jours", or "Période" with its two days "Du" and
 * "Au", both included), the time zone its days and hours are taken in (the organisation's by default), and the
 * channels (all those the caller may report on by default).
 */
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Day, PeriodPreset } from './period.ts';

export interface ReportSettings {
  preset: PeriodPreset;
  fromDay: Day;
  toDay: Day;
  timeZone: string;
  /** null: every channel the caller may report on. */
  channelIds: number[] | null;
}

export interface ReportControlsProps {
  value: ReportSettings;
  onChange: (change: Partial<ReportSettings>) => void;
  /** The days the presets cover now (to start a custom period from them). */
  current: { fromDay: Day; toDay: Day } | null;
  timeZones: string[];
  channels: Array<{ id: number; name: string }>;
  invalid: boolean;
}

const PRESETS: PeriodPreset[] = ['today', 'days7', 'days30', 'custom'];

export function ReportControls({ value, onChange, current, timeZones, channels, invalid }: ReportControlsProps) {
  const { t } = useTranslation('reports');
  const channelsLabelId = useId();
  const selected = value.channelIds ?? channels.map((channel) => channel.id);
  const names = new Map(channels.map((channel) => [channel.id, channel.name]));

  return (
    <Box
      role="group"
      aria-label={t('controls.label')}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-start', mb: 3 }}
    >
      <ToggleButtonGroup
        exclusive
        size="small"
        color="primary"
        aria-label={t('controls.period')}
        value={value.preset}
        onChange={(_, preset: PeriodPreset | null) => {
          if (!preset) return;
          // A custom period starts from the one shown.
          onChange(preset === 'custom' && current ? { preset, ...current } : { preset });
        }}
        sx={{ alignSelf: 'center', width: { xs: '100%', sm: 'auto' } }}
      >
        {PRESETS.map((preset) => (
          <ToggleButton
            key={preset}
            value={preset}
            // The default grey of an unselected button reads below 4.5:1 on the page's background.
            sx={{ px: { xs: 1, sm: 2 }, flex: { xs: 1, sm: 'none' }, color: 'text.secondary' }}
          >
            {t(`controls.${preset}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {value.preset === 'custom' ? (
        <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
          <TextField
            label={t('controls.from')}
            type="date"
            size="small"
            value={value.fromDay}
            onChange={(event) => onChange({ fromDay: event.target.value })}
            error={invalid}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: 170 }}
          />
          <TextField
            label={t('controls.to')}
            type="date"
            size="small"
            value={value.toDay}
            onChange={(event) => onChange({ toDay: event.target.value })}
            error={invalid}
            helperText={invalid ? t('controls.invalid') : undefined}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: 170 }}
          />
        </Box>
      ) : null}
      <Autocomplete
        size="small"
        disableClearable
        options={timeZones}
        value={value.timeZone}
        onChange={(_, timeZone) => onChange({ timeZone })}
        noOptionsText={t('controls.timeZoneNone')}
        renderInput={(params) => <TextField {...params} label={t('controls.timeZone')} />}
        sx={{ width: { xs: '100%', sm: 240 } }}
      />
      <FormControl size="small" sx={{ width: { xs: '100%', sm: 260 } }}>
        <InputLabel id={channelsLabelId} shrink>
          {t('controls.channels')}
        </InputLabel>
        <Select
          multiple
          displayEmpty
          notched
          labelId={channelsLabelId}
          label={t('controls.channels')}
          value={selected}
          onChange={(event) => {
            const ids = (event.target.value as Array<number | string>).map(Number);
            onChange({ channelIds: ids.length === channels.length ? null : ids });
          }}
          renderValue={(ids) =>
            value.channelIds === null
              ? t('controls.allChannels')
              : ids.length <= 2
                ? ids.map((id) => names.get(id) ?? '').join(', ')
                : t('controls.channelsCount', { count: ids.length })
          }
        >
          {channels.map((channel) => (
            <MenuItem key={channel.id} value={channel.id}>
              <Checkbox size="small" checked={selected.includes(channel.id)} tabIndex={-1} disableRipple />
              <ListItemText primary={channel.name} />
            </MenuItem>
          ))}
        </Select>
      </FormControl>
    </Box>
  );
}
