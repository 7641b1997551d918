/**
 * The channel's members as the map, the channel users table and the sidebar see them: who they are, whether
 * their socket is in this channel, where they last were and what they last did. The list comes from
 * getUsersInChannel; the socket keeps it live (onUserStatusChanged, onLocationChanged, onActivity), and a
 * status change is read again 3 s later (spec section 4: the status refresh is repeated after 3 s).
 */
import { type Activity, displayNameOf, GetUsersInChannel, type User, type UserStatus } from '@talkgroup/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../../../api/client.ts';
import { callKey } from '../../../api/queries.ts';
import type { TalkgroupSocket } from '../../../api/socket.ts';

export interface MemberPosition {
  lat: number;
  lng: number;
  createdAt: string;
}

export interface ChannelMember {
  user: User;
  /** The member has a socket in this channel now (green marker). */
  inChannel: boolean;
  online: boolean;
  position: MemberPosition | null;
  lastActivity: Activity | null;
  /** Its membership may take the floor; false: listen-only (it hears and chats). */
  canTalk: boolean;
}

const STATUS_REFRESH_MS = 3000;

export function memberName(user: Pick<User, 'display_name' | 'firstName' | 'lastName'>): string {
  return displayNameOf(user);
}

export function useChannelMembers(channelId: number | undefined, socket: TalkgroupSocket | null, token?: string) {
  const queryClient = useQueryClient();
  const body = { channelId: channelId ?? 0 };
  const queryKey = [...callKey(GetUsersInChannel, body), ...(token ? ['link'] : [])];
  const query = useQuery({
    queryKey,
    // The full response, as useApiQuery keeps it: the Search User dialog reads the same cache entry.
    queryFn: ({ signal }) => api(GetUsersInChannel, body, { signal, token }),
    select: (response) => response.res,
    enabled: channelId !== undefined,
  });
  const [statuses, setStatuses] = useState<Map<number, UserStatus>>(() => new Map());
  const [positions, setPositions] = useState<Map<number, MemberPosition>>(() => new Map());
  const [activities, setActivities] = useState<Map<number, Activity>>(() => new Map());
  const keyText = JSON.stringify(queryKey);

  // Live values are only needed until the list is read again; a fresh list already has them.
  useEffect(() => {
    if (query.dataUpdatedAt) {
      setStatuses(new Map());
      setActivities(new Map());
    }
  }, [query.dataUpdatedAt]);

  useEffect(() => {
    if (!socket || channelId === undefined) return;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const refresh = () => void queryClient.invalidateQueries({ queryKey: JSON.parse(keyText) });
    const refreshSoon = () => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        refresh();
      }, STATUS_REFRESH_MS);
      timers.add(timer);
    };
    const onStatus = (status: UserStatus) => {
      setStatuses((previous) => new Map(previous).set(status.userId, status));
      refreshSoon();
    };
    /** The changes of a moment, gathered by the server (this socket asked for one push per change). */
    const onStatuses = ({ statuses: changed }: { statuses: UserStatus[] }) => {
      setStatuses((previous) => {
        const next = new Map(previous);
        for (const status of changed) next.set(status.userId, status);
        return next;
      });
      refreshSoon();
    };
    const onLocation = (payload: { userId: number; lat: number; lng: number; createdAt: string }) => {
      setPositions((previous) =>
        new Map(previous).set(payload.userId, { lat: payload.lat, lng: payload.lng, createdAt: payload.createdAt }),
      );
    };
    const onActivity = (activity: Activity) => {
      const userId = activity.user?.id;
      if (typeof userId === 'number') setActivities((previous) => new Map(previous).set(userId, activity));
    };
    const onMembershipChanged = () => refresh();
    socket.on('onUserStatusChanged', onStatus);
    socket.on('userConnected', onStatus);
    socket.on('onUserStatusesChanged', onStatuses);
    socket.on('onLocationChanged', onLocation);
    socket.on('onActivity', onActivity);
    socket.on('onUsersChanged', onMembershipChanged);
    socket.on('onChannelsChanged', onMembershipChanged);
    socket.on('connect', onMembershipChanged);
    socket.on('resync', onMembershipChanged);
    return () => {
      socket.off('resync', onMembershipChanged);
      socket.off('onUserStatusChanged', onStatus);
      socket.off('userConnected', onStatus);
      socket.off('onUserStatusesChanged', onStatuses);
      socket.off('onLocationChanged', onLocation);
      socket.off('onActivity', onActivity);
      socket.off('onUsersChanged', onMembershipChanged);
      socket.off('onChannelsChanged', onMembershipChanged);
      socket.off('connect', onMembershipChanged);
      for (const timer of timers) clearTimeout(timer);
    };
  }, [socket, channelId, keyText, queryClient]);

  const members = useMemo<ChannelMember[]>(() => {
    return (query.data ?? []).map((user) => {
      const status = statuses.get(user.id);
      const inChannel = status
        ? channelId !== undefined && status.channelIds.includes(channelId)
        : user.user_sockets.some((socketRow) => socketRow.channelId === channelId);
      const online = status ? status.online : user.user_sockets.length > 0;
      const live = positions.get(user.id);
      const stored = user.userPositions[0];
      const position =
        live && (!stored || live.createdAt >= stored.createdAt)
          ? live
          : stored
            ? { lat: stored.lat, lng: stored.lng, createdAt: stored.createdAt }
            : null;
      const liveActivity = activities.get(user.id);
      const storedActivity = user.userActivities[0] ?? null;
      const lastActivity =
        liveActivity && (!storedActivity || liveActivity.createdAt >= storedActivity.createdAt)
          ? liveActivity
          : storedActivity;
      return { user, inChannel, online, position, lastActivity, canTalk: user.canTalk };
    });
  }, [query.data, statuses, positions, activities, channelId]);

  return { members, isLoading: query.isLoading, error: query.error, refresh: () => query.refetch() };
}
