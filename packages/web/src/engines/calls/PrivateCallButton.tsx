/**
 * "Private call" on a member's row (the users list, a channel's members, a map marker, a dispatch tile):
 * shown only when the signed-in user may call that person (protocol's mayCallPrivately, with the
 * organisation's setting), named after the person ("Private call with Mia Field").
 */
import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalkOutlined';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { GetCallSettings, mayCallPrivately } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { useSession } from '../../api/session.ts';
import { placeCall, useCallState } from './callState.ts';

export interface PrivateCallButtonProps {
  user: { id: number; name: string; role: string };
  /** The caller and this user are members of a same channel (the row is a channel's member). */
  shared: boolean;
  /** How it shows: an icon (a table row), a button, or an item of a menu. */
  look?: 'icon' | 'button' | 'menuItem';
  /** A menu item closes its menu. */
  onStarted?: () => void;
}

/** Whether the signed-in user may call `user` privately (undefined while the setting loads). */
export function useMayCall(user: { id: number; role: string }, shared: boolean): boolean {
  const session = useSession();
  const settings = useApiQuery(GetCallSettings, {}, { staleTime: 60_000 });
  const me = session?.user;
  if (!me || me.id === user.id || !settings.data) return false;
  return mayCallPrivately({ role: me.role }, { role: user.role }, shared, settings.data.res);
}

export function PrivateCallButton({ user, shared, look = 'icon', onStarted }: PrivateCallButtonProps) {
  const { t } = useTranslation('calls');
  const me = useSession()?.user;
  const { call } = useCallState();
  const allowed = useMayCall(user, shared);
  if (!allowed || !me) return null;
  const label = t('button', { name: user.name });
  const start = () => {
    onStarted?.();
    void placeCall(
      { id: user.id, name: user.name },
      { id: me.id, name: me.display_name || `${me.firstName} ${me.lastName}`.trim() },
    );
  };
  const busy = call !== null;
  if (look === 'menuItem')
    return (
      <MenuItem onClick={start} disabled={busy}>
        {label}
      </MenuItem>
    );
  if (look === 'button')
    return (
      <Button size="small" startIcon={<PhoneInTalkIcon />} onClick={start} disabled={busy} aria-label={label}>
        {t('short')}
      </Button>
    );
  return (
    <Tooltip title={label}>
      <span>
        <IconButton aria-label={label} onClick={start} disabled={busy} size="small">
          <PhoneInTalkIcon fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
}
