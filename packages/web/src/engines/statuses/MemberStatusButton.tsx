/**
 * "Statut de {name}" (issue 49): a dispatcher or an administrator sets a member's status from where the member is
 * shown (a dispatch tile, the users list, a map marker). A menu of the organisation's statuses, each with its
 * colour, the current one checked, and "Aucun" to clear it (setUserStatus). Shown only to who holds
 * `channel.dispatch` somewhere: the server says whether this member is one of its channels' (a 403's sentence).
 */
import LabelOutlined from '@mui/icons-material/LabelOutlined';
import Box from '@mui/material/Box';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMay } from '../../api/session.ts';
import { statusLabel, useSetUserStatus, useStatuses } from '../../api/statuses.ts';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { RowAction } from '../../components/RowActions.tsx';

export interface MemberStatusButtonProps {
  user: { id: number; name: string };
  /** The member's status now (null: none): its entry is checked. */
  statusId: number | null;
  /** Another look for the dark sidebar or a popup. */
  color?: 'default' | 'inherit';
}

export function MemberStatusButton({ user, statusId, color = 'default' }: MemberStatusButtonProps) {
  const { t, i18n } = useTranslation('common');
  const dispatches = useMay().somewhere('channel.dispatch');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const statuses = useStatuses({ enabled: dispatches });
  const notify = useNotify();
  const set = useSetUserStatus();
  if (!dispatches) return null;
  const label = t('memberStatus.of', { name: user.name });
  const close = () => setAnchor(null);
  const choose = (next: number | null) => {
    close();
    if (next === statusId) return;
    set.mutate({ userId: user.id, statusId: next }, { onError: (error) => notify(failureNotice(t, error)) });
  };
  const items = statuses.data?.res ?? [];
  return (
    <>
      <RowAction
        icon={<LabelOutlined fontSize="small" />}
        label={label}
        color={color}
        opensMenu
        expanded={anchor !== null}
        disabled={set.isPending}
        onClick={setAnchor}
      />
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        // A menu opened from a table row or a map popup: its clicks stay in the menu.
        onClick={(event) => event.stopPropagation()}
        slotProps={{ list: { 'aria-label': label } }}
      >
        {items.map((status) => (
          <MenuItem
            key={status.id}
            role="menuitemradio"
            aria-checked={status.id === statusId}
            selected={status.id === statusId}
            onClick={() => choose(status.id)}
          >
            <ListItemIcon>
              <Box
                component="span"
                aria-hidden
                sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: status.color }}
              />
            </ListItemIcon>
            <ListItemText>{statusLabel(status, i18n.resolvedLanguage)}</ListItemText>
          </MenuItem>
        ))}
        <MenuItem role="menuitemradio" aria-checked={statusId === null} onClick={() => choose(null)}>
          <ListItemIcon />
          <ListItemText>{t('memberStatus.none')}</ListItemText>
        </MenuItem>
      </Menu>
    </>
  );
}
