/**
 * "Mon statut" (issue 49): the member's own status, in the top bar of /talk and of a channel page. A button
 * shows it (its colour and label); its menu lists the organisation's statuses, each with its colour, and
 * "Aucun" to clear it. It follows live: a change from another device or by a dispatcher (memberStatusChanged),
 * a change of the list (statusesChanged).
 */
import CheckIcon from '@mui/icons-material/Check';
import PersonOutlineIcon from '@mui/icons-material/PersonOutlineOutlined';
import RemoveCircleOutlineIcon from '@mui/icons-material/RemoveCircleOutlineOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { statusLabel, useMemberStatuses, useSetMyStatus, useStatuses } from '../../api/statuses.ts';
import { useNotify } from '../../components/Notifier.tsx';

/** The status's colour; with no status, a person icon (a dashed ring read as a spinner, issue 58). */
function Dot({ color }: { color: string | undefined }) {
  if (!color) return <PersonOutlineIcon aria-hidden fontSize="small" />;
  return (
    <Box
      component="span"
      aria-hidden
      sx={{
        width: 12,
        height: 12,
        borderRadius: '50%',
        flex: 'none',
        bgcolor: color,
        border: '2px solid rgba(255,255,255,0.85)',
      }}
    />
  );
}

export function MyStatus() {
  const { t, i18n } = useTranslation('talk');
  const userId = useSession()?.user?.id;
  const statuses = useStatuses({ enabled: userId !== undefined });
  const mine = useMemberStatuses({
    enabled: userId !== undefined,
    ...(userId !== undefined ? { userIds: [userId] } : {}),
  }).get(userId ?? 0);
  const setMine = useSetMyStatus();
  const notify = useNotify();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const currentId = useId();
  const language = i18n.resolvedLanguage;
  const list = statuses.data?.res ?? [];
  if (userId === undefined || list.length === 0) return null;

  const current = mine ? statusLabel(mine.status, language) : undefined;
  const choose = (statusId: number | null) => {
    setAnchor(null);
    if (statusId === (mine?.status.id ?? null)) return;
    setMine.mutate(
      { statusId },
      { onError: (error) => notify({ severity: 'error', message: errorMessage(error, t('myStatus.failed')) }) },
    );
  };

  return (
    <>
      <Button
        color="inherit"
        aria-label={t('myStatus.label')}
        aria-describedby={currentId}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={<Dot color={mine?.status.color} />}
        sx={{ minHeight: 44, maxWidth: { xs: 150, sm: 240 }, textTransform: 'none', flex: 'none' }}
      >
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {current ?? t('myStatus.unset')}
        </Box>
      </Button>
      <Box component="span" id={currentId} hidden>
        {current ? t('myStatus.current', { status: current }) : t('myStatus.noneCurrent')}
      </Box>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {[
          ...list.map((status) => ({ id: status.id, label: statusLabel(status, language), color: status.color })),
          {
            id: null,
            label: t('myStatus.none'),
            color: undefined,
          },
        ].map((item) => {
          const checked = (mine?.status.id ?? null) === item.id;
          return (
            <MenuItem
              key={item.id ?? 'none'}
              role="menuitemradio"
              aria-checked={checked}
              selected={checked}
              onClick={() => choose(item.id)}
              sx={{ minHeight: 48 }}
            >
              <ListItemIcon sx={{ color: item.color ?? 'text.secondary' }}>
                {item.color ? (
                  <Box
                    component="span"
                    aria-hidden
                    sx={{ width: 16, height: 16, borderRadius: '50%', bgcolor: item.color }}
                  />
                ) : (
                  <RemoveCircleOutlineIcon aria-hidden fontSize="small" />
                )}
              </ListItemIcon>
              <ListItemText>{item.label}</ListItemText>
              {checked ? <CheckIcon fontSize="small" aria-hidden sx={{ ml: 2 }} /> : null}
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
