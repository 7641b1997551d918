/**
 * The users list's statuses (issue 49): the "Statut" column (the chip with its age, and "Statut de {name}" to set
 * it) and "Filtrer par statut" above the table (all, one status, or none).
 */
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslation } from 'react-i18next';
import { type MemberStatusEntry, statusLabel, useStatuses } from '../../api/statuses.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { MemberStatusButton } from '../../engines/statuses/index.ts';
import type { StatusFilter } from './statusFilter.ts';

export function StatusFilterSelect({
  value,
  onChange,
}: {
  value: StatusFilter;
  onChange: (next: StatusFilter) => void;
}) {
  const { t, i18n } = useTranslation('users');
  const statuses = useStatuses().data?.res ?? [];
  // A status deleted meanwhile: back to all.
  const shown = typeof value === 'number' && !statuses.some((status) => status.id === value) ? 'all' : value;
  return (
    <TextField
      select
      size="small"
      label={t('statusFilter.label')}
      value={String(shown)}
      onChange={(event) => {
        const next = event.target.value;
        onChange(next === 'all' || next === 'none' ? next : Number(next));
      }}
      sx={{ width: { xs: '100%', sm: 200 } }}
    >
      <MenuItem value="all">{t('statusFilter.all')}</MenuItem>
      {statuses.map((status) => (
        <MenuItem key={status.id} value={String(status.id)}>
          <Box
            component="span"
            aria-hidden
            sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: status.color, mr: 1, flexShrink: 0 }}
          />
          {statusLabel(status, i18n.resolvedLanguage)}
        </MenuItem>
      ))}
      <MenuItem value="none">{t('statusFilter.none')}</MenuItem>
    </TextField>
  );
}

/** The status column's cell: the chip (when any) and the dispatcher's or administrator's menu. */
export function UserStatusCell({
  user,
  entry,
}: {
  user: { id: number; name: string };
  entry: MemberStatusEntry | undefined;
}) {
  return (
    // The chip's words wrap and the menu goes below it rather than widen the users table (issue 58).
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 0.5,
        minWidth: 0,
        '& .MuiChip-root': { maxWidth: '100%', height: 'auto', py: 0.25 },
        '& .MuiChip-label': { whiteSpace: 'normal' },
      }}
    >
      {entry ? <StatusChip status={entry.status} since={entry.since} setBy={entry.setBy} /> : null}
      <MemberStatusButton user={user} statusId={entry?.status.id ?? null} />
    </Box>
  );
}
