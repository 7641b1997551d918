/**
 * The map of the monitored channels' members: the room's members map (features/room/map) over every monitored
 * channel at once, each member once, green when its socket is in one of them, with "Private call" in its
 * marker; their trails, the time slider and the zones of these channels (issue 28, features/tracking), as on a
 * room's map.
 */
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { GetUsersInChannel, type User } from '@talkgroup/protocol';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client.ts';
import { callKey } from '../../api/queries.ts';
import { useServerEvents } from '../../api/serverEvents.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { useActivitySentence } from '../../engines/activities/index.ts';
import { PrivateCallButton } from '../../engines/calls/index.ts';
import { MembersMap } from '../../engines/map/index.ts';
import { type ChannelMember, memberName } from '../../engines/room/index.ts';
import { TrackingLayers, TrackingToolbar, useMapTracking } from '../../engines/tracking/index.ts';
import { RegroupPickButton, type RegroupPicks } from './regroup/RegroupPickButton.tsx';

export interface DispatchMapProps {
  /** The monitored channels: their members are on the map, and a new zone belongs to one of them. */
  channels: Array<{ id: number; name: string }>;
  /** Issue 59: members picked on the map for the next regroup. */
  regroupPicks?: RegroupPicks;
}

export function DispatchMap({ channels, regroupPicks }: DispatchMapProps) {
  const channelIds = useMemo(() => channels.map((channel) => channel.id), [channels]);
  const { t } = useTranslation('dispatch');
  const config = useClientConfig();
  const client = useQueryClient();
  const describe = useActivitySentence();
  const lists = useQueries({
    queries: channelIds.map((channelId) => ({
      queryKey: callKey(GetUsersInChannel, { channelId }),
      queryFn: ({ signal }: { signal: AbortSignal }) => api(GetUsersInChannel, { channelId }, { signal }),
    })),
  });
  // Presence and positions move the markers: the lists are read again, at most once a few seconds.
  useServerEvents(
    ['onUserStatusesChanged', 'onLocationChanged'],
    () => {
      void client.invalidateQueries({ queryKey: callKey(GetUsersInChannel) });
    },
    3000,
  );

  const key = lists.map((list) => list.dataUpdatedAt).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for the lists' answers
  const members = useMemo(() => {
    const monitored = new Set(channelIds);
    const byId = new Map<number, ChannelMember>();
    for (const list of lists) {
      for (const user of (list.data?.res ?? []) as Array<User & { canTalk: boolean }>) {
        if (byId.has(user.id)) continue;
        const position = user.userPositions[0];
        byId.set(user.id, {
          user,
          inChannel: user.user_sockets.some((socket) => socket.channelId !== null && monitored.has(socket.channelId)),
          online: user.user_sockets.length > 0,
          position: position ? { lat: position.lat, lng: position.lng, createdAt: position.createdAt } : null,
          lastActivity: user.userActivities[0] ?? null,
          canTalk: user.canTalk,
        });
      }
    }
    return [...byId.values()];
  }, [key]);
  const tracked = useMemo(
    () =>
      members.map((member) => ({
        id: member.user.id,
        name: memberName(member.user),
        located: member.position !== null,
      })),
    [members],
  );
  const tracking = useMapTracking({ channels, members: tracked });

  if (!config.data || channelIds.length === 0) return null;
  return (
    <Paper component="section" aria-labelledby="dispatch-map-title" variant="outlined" sx={{ p: 2, borderRadius: 3 }}>
      <Typography id="dispatch-map-title" component="h2" variant="h6" sx={{ mb: 1 }}>
        {t('map.title')}
      </Typography>
      <TrackingToolbar tracking={tracking} />
      <MembersMap
        members={members}
        config={config.data}
        height={360}
        describeActivity={(member) => describe(member.lastActivity)}
        memberAction={(member) => (
          <>
            <PrivateCallButton
              user={{ id: member.user.id, name: memberName(member.user), role: member.user.role }}
              shared
              look="button"
            />
            {regroupPicks ? (
              <RegroupPickButton user={{ id: member.user.id, name: memberName(member.user) }} picks={regroupPicks} />
            ) : null}
          </>
        )}
      >
        <TrackingLayers tracking={tracking} />
      </MembersMap>
    </Paper>
  );
}
