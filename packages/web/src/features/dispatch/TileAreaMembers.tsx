/**
 * Who is in an area channel's zone now (issue 59), under the tile's members: "Dans la zone" and their names, one
 * whose exit is running marked as leaving. Read by getAreaMembers, and again whenever someone enters or leaves
 * the zone (the area_enter / area_exit activities the console hears). Nothing for a channel that follows no zone.
 */
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { type Activity, GetAreaMembers } from '@talkgroup/protocol';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/queries.ts';
import { useServerEvent } from '../../api/serverEvents.ts';

export function TileAreaMembers({ channel }: { channel: { id: number; name: string } }) {
  const { t } = useTranslation('dispatch');
  const area = useApiQuery(GetAreaMembers, { channelId: channel.id });
  const { refetch } = area;
  useServerEvent('onActivity', (activity: Activity) => {
    if ((activity.type === 'area_enter' || activity.type === 'area_exit') && activity.channel?.id === channel.id)
      void refetch();
  });
  const members = area.data?.res ?? [];
  if (members.length === 0) return null;
  return (
    <Box>
      <Typography variant="caption" sx={{ color: 'text.secondary' }}>
        {t('tile.areaTitle')}
      </Typography>
      <Box component="ul" aria-label={t('tile.area', { channel: channel.name })} sx={{ m: 0, pl: 2 }}>
        {members.map((member) => (
          <Typography component="li" variant="body2" key={member.userId}>
            {member.outsideSince === null ? member.display_name : t('tile.areaLeaving', { name: member.display_name })}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
