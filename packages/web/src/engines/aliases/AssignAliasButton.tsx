/**
 * "Fonctions de {name}" (issue 59): a dispatcher or an administrator gives a member a functional alias, or takes it
 * back, from where the member is shown (a dispatch tile). A menu of the aliases, those the member holds checked
 * (assignAlias). Shown only to who holds `channel.dispatch` somewhere, while the organisation has aliases: the
 * server says whether this member is one of its channels' (a 403's sentence), or that an alias is full.
 */
import BadgeIcon from '@mui/icons-material/BadgeOutlined';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { AssignAlias, GetAliases } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAliases } from '../../api/aliases.ts';
import { callKey, useApiMutation } from '../../api/queries.ts';
import { useMay } from '../../api/session.ts';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { RowAction } from '../../components/RowActions.tsx';

export function AssignAliasButton({ user }: { user: { id: number; name: string } }) {
  const { t } = useTranslation('common');
  const dispatches = useMay().somewhere('channel.dispatch');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const aliases = useAliases({ enabled: dispatches });
  const client = useQueryClient();
  const notify = useNotify();
  const assign = useApiMutation(AssignAlias, {
    onSuccess: () => void client.invalidateQueries({ queryKey: callKey(GetAliases) }),
    onError: (error) => notify(failureNotice(t, error)),
  });
  const list = aliases.data?.res ?? [];
  if (!dispatches || list.length === 0) return null;
  const label = t('aliasesOf', { name: user.name });
  return (
    <>
      <RowAction
        icon={<BadgeIcon fontSize="small" />}
        label={label}
        opensMenu
        expanded={anchor !== null}
        disabled={assign.isPending}
        onClick={setAnchor}
      />
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        onClick={(event) => event.stopPropagation()}
        slotProps={{ list: { 'aria-label': label } }}
      >
        {list.map((alias) => {
          const holds = alias.holders.some((holder) => holder.userId === user.id);
          return (
            <MenuItem
              key={alias.id}
              role="menuitemcheckbox"
              aria-checked={holds}
              selected={holds}
              onClick={() => {
                setAnchor(null);
                assign.mutate({ aliasId: alias.id, userId: user.id, holds: !holds });
              }}
            >
              <ListItemText
                primary={alias.name}
                secondary={t('aliasHolders', { count: alias.holders.length, max: alias.maxHolders })}
              />
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
