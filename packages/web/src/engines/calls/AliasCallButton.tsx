/**
 * "Appeler une fonction" (issue 59): a private call to whoever holds a functional alias ("Chef de quart"), from
 * the dispatch console. Its menu lists the aliases with how many hold each; the server rings every holder the
 * caller may call, and refuses with its sentence when nobody holds it (shown as the call's notice).
 */
import PhoneForwardedIcon from '@mui/icons-material/PhoneForwardedOutlined';
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAliases } from '../../api/aliases.ts';
import { useSession } from '../../api/session.ts';
import { placeCall, useCallState } from './callState.ts';

export function AliasCallButton() {
  const { t } = useTranslation('calls');
  const me = useSession()?.user;
  const { call } = useCallState();
  const aliases = useAliases({ enabled: me !== undefined });
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const list = aliases.data?.res ?? [];
  if (!me || list.length === 0) return null;
  const start = (alias: { id: number; name: string }) => {
    setAnchor(null);
    void placeCall(
      { aliasId: alias.id, name: alias.name },
      { id: me.id, name: me.display_name || `${me.firstName} ${me.lastName}`.trim() },
    );
  };
  return (
    <>
      <Button
        size="small"
        variant="outlined"
        startIcon={<PhoneForwardedIcon />}
        disabled={call !== null}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        aria-controls={anchor ? menuId : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('alias.button')}
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {list.map((alias) => (
          <MenuItem key={alias.id} onClick={() => start(alias)} sx={{ minHeight: 44 }}>
            <ListItemText
              primary={t('alias.call', { name: alias.name })}
              secondary={
                alias.holders.length > 0 ? alias.holders.map((holder) => holder.name).join(', ') : t('alias.nobody')
              }
            />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
