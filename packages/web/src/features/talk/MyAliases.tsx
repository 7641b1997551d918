/**
 * "Fonctions" (issue 59): the functional aliases the user holds, in the top bar of /talk. Its menu lists the
 * aliases the user's role may take (issue 69: each alias's `takeRoles`) and those it holds: "Prendre Chef de
 * quart" for one it does not hold (refused with the server's sentence when as many hold it as it allows), "Rendre
 * Chef de quart" for one it holds. Hidden while there is none.
 */
import BadgeIcon from '@mui/icons-material/BadgeOutlined';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Alias, useAliases, useReleaseAlias, useTakeAlias } from '../../api/aliases.ts';
import { errorMessage } from '../../api/client.ts';
import { useSession } from '../../api/session.ts';
import { useNotify } from '../../components/Notifier.tsx';

export function MyAliases() {
  const { t } = useTranslation(['talk', 'common']);
  const me = useSession()?.user;
  const userId = me?.id;
  const aliases = useAliases({ enabled: userId !== undefined });
  const take = useTakeAlias();
  const release = useReleaseAlias();
  const notify = useNotify();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const holdsIt = (alias: Alias) => alias.holders.some((holder) => holder.userId === userId);
  const list = (aliases.data?.res ?? []).filter(
    (alias) => holdsIt(alias) || (me?.role !== undefined && alias.takeRoles.includes(me.role)),
  );
  if (userId === undefined || list.length === 0) return null;
  const held = list.filter(holdsIt);
  const failed = (error: unknown) =>
    notify({ severity: 'error', message: errorMessage(error, t('talk:aliases.failed')) });

  const toggle = (aliasId: number, holds: boolean, name: string) => {
    setAnchor(null);
    const done = (code: 'alias_taken' | 'alias_released') => () =>
      notify({ severity: 'success', message: t(`common:server.${code}`, { name }) });
    if (holds) release.mutate({ aliasId }, { onSuccess: done('alias_released'), onError: failed });
    else take.mutate({ aliasId }, { onSuccess: done('alias_taken'), onError: failed });
  };

  return (
    <>
      <Button
        color="inherit"
        aria-label={t('talk:aliases.label')}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
        startIcon={<BadgeIcon aria-hidden fontSize="small" />}
        sx={{ minHeight: 44, maxWidth: { xs: 150, sm: 240 }, textTransform: 'none', flex: 'none' }}
      >
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {held.length > 0 ? held.map((alias) => alias.name).join(', ') : t('talk:aliases.none')}
        </Box>
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {list.map((alias) => {
          const holds = held.includes(alias);
          return (
            <MenuItem key={alias.id} onClick={() => toggle(alias.id, holds, alias.name)} sx={{ minHeight: 48 }}>
              <ListItemText
                primary={t(holds ? 'talk:aliases.release' : 'talk:aliases.take', { name: alias.name })}
                secondary={t('talk:aliases.holders', { count: alias.holders.length, max: alias.maxHolders })}
              />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
