/** A tile's "Call" menu: a private call to one of its channel's members (read when the menu opens). */
import PhoneInTalkIcon from '@mui/icons-material/PhoneInTalkOutlined';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { GetUsersInChannel } from '@talkgroup/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { PrivateCallButton } from '../../engines/calls/index.ts';
import { memberName } from '../../engines/room/index.ts';

export function CallMembersMenu({ channel }: { channel: { id: number; name: string } }) {
  const { t } = useTranslation('dispatch');
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const members = useApiQuery(GetUsersInChannel, { channelId: channel.id }, { enabled: anchor !== null });
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        size="small"
        startIcon={<PhoneInTalkIcon />}
        aria-label={t('tile.call', { channel: channel.name })}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {t('tile.callShort')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        {members.data?.res.map((user) => (
          <PrivateCallButton
            key={user.id}
            user={{ id: user.id, name: memberName(user), role: user.role }}
            shared
            look="menuItem"
            onStarted={close}
          />
        )) ?? <MenuItem disabled>{t('tile.loadingMembers')}</MenuItem>}
      </Menu>
    </>
  );
}
