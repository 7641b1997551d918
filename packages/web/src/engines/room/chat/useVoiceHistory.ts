/**
 * A channel's voice history (issue 15): the recorded transmissions (getChannelVoiceMessages, newest first,
 * paged with beforeId), those recorded live (voiceMessage) and deleted (voiceMessageDeleted), what was
 * missed since the last one listened to on this device (a marker per channel in local storage), and the
 * player. After a lost link the first page is read again: pushes sent meanwhile never arrive.
 */
import {
  DeleteVoiceMessage,
  GetChannelVoiceMessages,
  MarkTransmissionsHeard,
  type VoiceMessage,
} from '@talkgroup/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { api } from '../../../api/client.ts';
import { callKey } from '../../../api/queries.ts';
import { readVoiceListened, writeVoiceListened } from '../../../api/roomStorage.ts';
import type { TalkgroupSocket } from '../../../api/socket.ts';
import { playingVoiceId, playVoiceMessages, stopVoicePlayback, subscribeVoicePlayback } from '../../voice/index.ts';

export interface VoiceHistoryOptions {
  channelId: number | undefined;
  userId: number | undefined;
  socket: TalkgroupSocket | null;
  token?: string;
}

const startOf = (item: VoiceMessage) => Date.parse(item.createdAt);
const byTime = (a: VoiceMessage, b: VoiceMessage) => startOf(a) - startOf(b) || a.id - b.id;

export function useVoiceHistory({ channelId, userId, socket, token }: VoiceHistoryOptions) {
  const history = useInfiniteQuery({
    queryKey: [...callKey(GetChannelVoiceMessages, { channelId: channelId ?? 0 }), ...(token ? ['link'] : [])],
    queryFn: ({ pageParam, signal }) =>
      api(
        GetChannelVoiceMessages,
        pageParam === undefined ? { channelId: channelId ?? 0 } : { channelId: channelId ?? 0, beforeId: pageParam },
        { signal, token },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => (page.hasMore ? page.res.at(-1)?.id : undefined),
    enabled: channelId !== undefined,
    staleTime: 0,
  });
  const [live, setLive] = useState<ReadonlyMap<number, VoiceMessage>>(new Map());
  const [deleted, setDeleted] = useState<ReadonlySet<number>>(new Set());
  const [listened, setListened] = useState<string | null>(null);

  useEffect(() => {
    setLive(new Map());
    setDeleted(new Set());
    setListened(channelId === undefined ? null : readVoiceListened(channelId));
  }, [channelId]);

  const { refetch } = history;
  useEffect(() => {
    if (!socket || channelId === undefined) return;
    const onVoice = (item: VoiceMessage) => {
      if (item.channelId === channelId) setLive((previous) => new Map(previous).set(item.id, item));
    };
    const onDeleted = (payload: { id: number; channelId: number }) => {
      if (payload.channelId === channelId) setDeleted((previous) => new Set(previous).add(payload.id));
    };
    let wasConnected = socket.connected;
    const onConnect = () => {
      if (wasConnected) void refetch();
      wasConnected = true;
    };
    const onResync = () => void refetch();
    socket.on('voiceMessage', onVoice);
    socket.on('voiceMessageDeleted', onDeleted);
    socket.on('connect', onConnect);
    socket.on('resync', onResync);
    return () => {
      socket.off('voiceMessage', onVoice);
      socket.off('voiceMessageDeleted', onDeleted);
      socket.off('connect', onConnect);
      socket.off('resync', onResync);
    };
  }, [socket, channelId, refetch]);

  // Leaving the channel's page stops what it plays.
  useEffect(() => () => stopVoicePlayback(), []);

  const pages = history.data?.pages;
  const items = useMemo(() => {
    const byId = new Map<number, VoiceMessage>();
    for (const page of pages ?? []) for (const item of page.res) byId.set(item.id, item);
    for (const item of live.values()) byId.set(item.id, item);
    for (const id of deleted) byId.delete(id);
    return [...byId.values()].sort(byTime);
  }, [pages, live, deleted]);

  const missed = useMemo(() => {
    const after = listened ? Date.parse(listened) : Number.NEGATIVE_INFINITY;
    return items.filter((item) => item.userId !== userId && startOf(item) > after);
  }, [items, listened, userId]);

  const markListened = useCallback(
    (item: VoiceMessage) => {
      if (channelId === undefined) return;
      // Heard on the server too, for the member's other devices (issue 34); not by a call view link's reader.
      if (!token) void api(MarkTransmissionsHeard, { ids: [item.id] }).catch(() => {});
      setListened((previous) => {
        if (previous && Date.parse(previous) >= startOf(item)) return previous;
        writeVoiceListened(channelId, item.createdAt);
        return item.createdAt;
      });
    },
    [channelId, token],
  );

  const playing = useSyncExternalStore(subscribeVoicePlayback, playingVoiceId, playingVoiceId);
  const play = useCallback((item: VoiceMessage) => playVoiceMessages([item], markListened), [markListened]);
  const playMissed = useCallback(() => playVoiceMessages(missed, markListened), [missed, markListened]);

  const remove = useCallback(
    async (id: number) => {
      await api(DeleteVoiceMessage, { id }, { token });
      setDeleted((previous) => new Set(previous).add(id));
    },
    [token],
  );

  const { fetchNextPage } = history;
  const loadEarlier = useCallback(async () => {
    await fetchNextPage();
  }, [fetchNextPage]);

  return {
    items,
    missed,
    playing,
    play,
    playMissed,
    stop: stopVoicePlayback,
    remove,
    hasMore: history.hasNextPage,
    loadEarlier,
  };
}

export type VoiceHistory = ReturnType<typeof useVoiceHistory>;
