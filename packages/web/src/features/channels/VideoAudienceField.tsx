/**
 * Who watches a channel's live video (issue 61): "Répartiteurs et administrateurs" / "Dispatchers and
 * administrators" (`dispatch`, the default) or "Tous les membres du canal" / "Every member of the channel"
 * (`channel`).
 */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { VIDEO_AUDIENCES, type VideoAudience } from '@talkgroup/protocol';
import { type Control, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

export function VideoAudienceField<Form extends { videoAudience: VideoAudience }>({
  control,
}: {
  control: Control<Form>;
}) {
  const { t } = useTranslation('video');
  const typed = control as unknown as Control<{ videoAudience: VideoAudience }>;
  const { field } = useController({ name: 'videoAudience', control: typed });
  return (
    <TextField
      select
      label={t('audience.label')}
      name={field.name}
      value={field.value}
      onChange={(event) => field.onChange(event.target.value as VideoAudience)}
    >
      {VIDEO_AUDIENCES.map((audience) => (
        <MenuItem key={audience} value={audience}>
          {t(`audience.${audience}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
