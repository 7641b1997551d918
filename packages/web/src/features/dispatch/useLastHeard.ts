/**
 * The latest transmissions across the monitored channels (the "Last heard" strip and each tile's last one):
 * each channel's recent voice history, then every new transmission as it is pushed to its room; newest first,
 * LAST_HEARD_KEPT kept. Read again after a reconnection (pushes may have been missed).
 */
import { GetChannelVoiceMessages, type VoiceMessage } from '@talkgroup/protocol';
import { useQueries } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api } from '../../api/client.ts';
import { callKey } from '../../api/queries.ts';
import { useServerEvent } from '../../api/serverEvents.ts';

export const LAST_HEARD_KEPT = 50;
const PER_CHANNEL = 10;

const newestFirst = (a: VoiceMessage, b: VoiceMessage) =>
  Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id;

export function useLastHeard(channelIds: number[]): VoiceMessage[] {
  const queries = useQueries({
    queries: channelIds.map((channelId) => {
      const body = { channelId, limit: PER_CHANNEL };
      return {
        queryKey: callKey(GetChannelVoiceMessages, body),
        queryFn: ({ signal }: { signal: AbortSignal }) => api(GetChannelVoiceMessages, body, { signal }),
        staleTime: 30_000,
      };
    }),
  });
  const [pushed, setPushed] = useState<VoiceMessage[]>([]);
  const [deleted, setDeleted] = useState<ReadonlySet<number>>(() => new Set());
  const watched = new Set(channelIds);

  useServerEvent('voiceMessage', (message) => {
    if (watched.has(message.channelId)) setPushed((known) => [message, ...known].slice(0, LAST_HEARD_KEPT));
  });
  useServerEvent('voiceMessageDeleted', ({ id }) => setDeleted((known) => new Set([...known, id])));
  // Back after a lost link: what was recorded meanwhile was not pushed here.
  useServerEvent(
    'connect' as never,
    (() => {
      for (const query of queries) void query.refetch();
    }) as never,
  );

  const fetched = queries.flatMap((query) => query.data?.res ?? []);
  const key = `${fetched.map((m) => m.id).join(',')}|${pushed.map((m) => m.id).join(',')}|${deleted.size}|${channelIds.join(',')}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: key stands for the lists it is built from
  return useMemo(() => {
    const byId = new Map<number, VoiceMessage>();
    for (const message of [...fetched, ...pushed])
      if (watched.has(message.channelId) && !deleted.has(message.id)) byId.set(message.id, message);
    return [...byId.values()].sort(newestFirst).slice(0, LAST_HEARD_KEPT);
  }, [key]);
}
