/** The users list's roles (issue 58): "Filtrer par rôle" above the table (every role, or one). */
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { ROLES, type Role } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';

export type RoleFilter = 'all' | Role;

export function RoleFilterSelect({ value, onChange }: { value: RoleFilter; onChange: (next: RoleFilter) => void }) {
  const { t } = useTranslation('users');
  return (
    <TextField
      select
      size="small"
      label={t('roleFilter.label')}
      value={value}
      onChange={(event) => onChange(event.target.value as RoleFilter)}
      sx={{ width: { xs: '100%', sm: 180 } }}
    >
      <MenuItem value="all">{t('roleFilter.all')}</MenuItem>
      {ROLES.map((role) => (
        <MenuItem key={role} value={role}>
          {t(`form.roles.${role}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}
