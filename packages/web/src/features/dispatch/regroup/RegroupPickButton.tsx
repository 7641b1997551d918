/** A member's marker on the console's map (issue 59): "Add to regroup" picks it for the next regroup, or takes it back. */
import GroupAddIcon from '@mui/icons-material/GroupAddOutlined';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';

export interface RegroupPicks {
  picked: ReadonlySet<number>;
  toggle(userId: number): void;
}

export function RegroupPickButton({ user, picks }: { user: { id: number; name: string }; picks: RegroupPicks }) {
  const { t } = useTranslation('dispatch');
  const picked = picks.picked.has(user.id);
  return (
    <Button
      size="small"
      variant={picked ? 'contained' : 'outlined'}
      startIcon={<GroupAddIcon />}
      aria-pressed={picked}
      onClick={() => picks.toggle(user.id)}
      aria-label={t(picked ? 'regroup.unpick' : 'regroup.pick', { name: user.name })}
    >
      {t(picked ? 'regroup.unpickShort' : 'regroup.pickShort')}
    </Button>
  );
}
