/**
 * "Canal de zone" / "Area channel" (issue 59): the geofence a channel follows, or none. Whoever enters the zone
 * with map access joins the channel; the server takes them out after they leave it.
 */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { GetGeofences } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';

export interface AreaChannelSelectProps {
  /** Reads the zones only while the dialog is open. */
  open: boolean;
  name: string;
  value: number | null;
  onChange: (geofenceId: number | null) => void;
}

export function AreaChannelSelect({ open, name, value, onChange }: AreaChannelSelectProps) {
  const { t } = useTranslation('channels');
  const zones = useApiQuery(GetGeofences, {}, { enabled: open }).data?.res ?? [];
  return (
    <TextField
      select
      label={t('form.area')}
      name={name}
      value={value === null ? '' : String(value)}
      onChange={(event) => onChange(event.target.value === '' ? null : Number(event.target.value))}
      helperText={t('form.areaHelp')}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{t('form.areaNone')}</MenuItem>
      {zones.map((zone) => (
        <MenuItem key={zone.id} value={String(zone.id)}>
          {zone.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
