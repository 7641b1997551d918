/**
 * A channel's chat: the history (getchannelmessagelistForAdmin, an infinite query paged back with beforeId),
 * messages that arrive live and deletions (onMessageDeleted), merged by chatLog.ts; sending text and images,
 * and who is typing (typingResponse, cleared after 3 s).
 */
import {
  DeleteMessageById,
  GetChannelMessageListForAdmin,
  type Message,
  SendMessageToChannel,
  TYPING_CLEAR_MS,
  UPLOAD_FILE_PATH,
  type UploadFileResponse,
} from '@talkgroup/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api, apiErrorOf } from '../../../api/client.ts';
import { callKey } from '../../../api/queries.ts';
import { getToken } from '../../../api/session.ts';
import type { TalkgroupSocket } from '../../../api/socket.ts';
import {
  type ChatLog,
  earlierPageParam,
  emptyChatLog,
  receiveMessage,
  removeMessage,
  visibleMessages,
} from './chatLog.ts';
import { useVoiceHistory } from './useVoiceHistory.ts';

/**
 * While the user types: the first keystroke is sent at once, then at most one typing event per this interval,
 * the last one at the end of the interval in which the last keystroke fell. The others clear the indicator
 * TYPING_CLEAR_MS after the last event they got, so it goes 3 s after the last keystroke (+ at most this).
 */
const TYPING_EMIT_MS = 250;

export interface Typer {
  id: string;
  name: string;
}

export interface ChatOptions {
  channelId: number | undefined;
  room: string | undefined;
  userId: number | undefined;
  socket: TalkgroupSocket | null;
  token?: string;
  /** The channel records its transmissions (the timeline shows the 'recorded' mark). */
  recording?: boolean;
  /** The voice history may be exported and its transmissions deleted (voice.manage: an administrator). */
  canExport?: boolean;
  /** Others' messages may be deleted (messages.moderate: an administrator). */
  canModerate?: boolean;
}

export async function uploadImage(
  file: File,
  fields: { userId?: number; channelId: number; textMsg: string },
  token: string | null,
): Promise<Message> {
  const form = new FormData();
  if (fields.userId !== undefined) form.append('userId', String(fields.userId));
  form.append('channelId', String(fields.channelId));
  form.append('textMsg', fields.textMsg);
  // The file goes last: the server reads the fields before it streams the image.
  form.append('image', file, file.name);
  let response: Response;
  try {
    response = await fetch(UPLOAD_FILE_PATH, {
      method: 'POST',
      headers: token ? { 'x-access-token': token } : {},
      body: form,
    });
  } catch {
    throw new ApiError(UPLOAD_FILE_PATH, 0, undefined);
  }
  const payload = (await response.json().catch(() => undefined)) as
    | UploadFileResponse
    | { result?: string }
    | undefined;
  if (!response.ok || !payload || !('res' in payload)) {
    throw apiErrorOf(UPLOAD_FILE_PATH, response.status, payload);
  }
  return payload.res;
}

export function useChat({
  channelId,
  room,
  userId,
  socket,
  token,
  recording = false,
  canExport = false,
  canModerate = false,
}: ChatOptions) {
  // Transmissions are shown in the same timeline as the messages (issue 15).
  const voice = useVoiceHistory({ channelId, userId, socket, token });
  const history = useInfiniteQuery({
    queryKey: [...callKey(GetChannelMessageListForAdmin, { channelId: channelId ?? 0 }), ...(token ? ['link'] : [])],
    queryFn: ({ pageParam, signal }) =>
      api(
        GetChannelMessageListForAdmin,
        pageParam === undefined ? { channelId: channelId ?? 0 } : { channelId: channelId ?? 0, beforeId: pageParam },
        { signal, token },
      ),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: earlierPageParam,
    enabled: channelId !== undefined,
    staleTime: 0,
  });
  const [log, setLog] = useState<ChatLog>(() => emptyChatLog(channelId));
  const [typers, setTypers] = useState<Typer[]>([]);
  const lastTypingEmit = useRef(0);
  const trailingTyping = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // Another room in the same page (a link from room to room): start from that room's history.
  useEffect(() => {
    setLog(emptyChatLog(channelId));
    setTypers([]);
  }, [channelId]);

  const upsert = useCallback((message: Message) => setLog((previous) => receiveMessage(previous, message)), []);
  const remove = useCallback((id: number) => setLog((previous) => removeMessage(previous, id)), []);

  useEffect(() => {
    if (!socket || channelId === undefined) return;
    const timers = new Map<string, ReturnType<typeof setTimeout>>();
    const onDeleted = (payload: { id: number; channelId: number }) => {
      if (payload.channelId === channelId) remove(payload.id);
    };
    const onTyping = (payload: { id: string; userId: number; name: string; room: string }) => {
      if (payload.room !== room || payload.userId === userId) return;
      setTypers((previous) =>
        previous.some((typer) => typer.id === payload.id)
          ? previous
          : [...previous, { id: payload.id, name: payload.name }],
      );
      clearTimeout(timers.get(payload.id));
      timers.set(
        payload.id,
        setTimeout(() => {
          timers.delete(payload.id);
          setTypers((previous) => previous.filter((typer) => typer.id !== payload.id));
        }, TYPING_CLEAR_MS),
      );
    };
    const onMessage = (message: Message) => {
      upsert(message);
      // A message sent ends its author's typing.
      setTypers((previous) => previous.filter((typer) => typer.name !== message.user.display_name));
    };
    socket.on('messageResponse', onMessage);
    socket.on('onSendMessage', onMessage);
    socket.on('onMessageDeleted', onDeleted);
    socket.on('typingResponse', onTyping);
    return () => {
      socket.off('messageResponse', onMessage);
      socket.off('onSendMessage', onMessage);
      socket.off('onMessageDeleted', onDeleted);
      socket.off('typingResponse', onTyping);
      for (const timer of timers.values()) clearTimeout(timer);
    };
  }, [socket, channelId, room, userId, upsert, remove]);

  const pages = history.data?.pages;
  const messages = useMemo(() => visibleMessages(pages?.map((page) => page.discussion) ?? [], log), [pages, log]);

  // After a lost link, what was said meanwhile is fetched (after the newest message shown) and merged
  // once: pushes sent while the socket was away never arrive.
  const newestId = useRef(0);
  newestId.current = messages.at(-1)?.id ?? 0;
  useEffect(() => {
    if (!socket || channelId === undefined) return;
    let wasConnected = socket.connected;
    const catchUp = async () => {
      for (let more = true; more; ) {
        const page = await api(GetChannelMessageListForAdmin, { channelId, afterId: newestId.current }, { token });
        for (const message of page.discussion) upsert(message);
        newestId.current = page.discussion.at(-1)?.id ?? newestId.current;
        more = page.hasMore && page.discussion.length > 0;
      }
    };
    const onConnect = () => {
      if (wasConnected || newestId.current > 0) void catchUp().catch(() => {});
      wasConnected = true;
    };
    // The link between server instances came back: pushes from the others may have been lost.
    const onResync = () => void catchUp().catch(() => {});
    socket.on('connect', onConnect);
    socket.on('resync', onResync);
    return () => {
      socket.off('connect', onConnect);
      socket.off('resync', onResync);
    };
  }, [socket, channelId, token, upsert]);

  const send = useCallback(
    async (text: string) => {
      // Spec section 5: sent only when non-blank after trimming.
      const message = text.trim();
      if (!message || channelId === undefined) return false;
      // The message ends the typing: no late typing event after it.
      clearTimeout(trailingTyping.current);
      trailingTyping.current = undefined;
      const response = await api(SendMessageToChannel, { userId, channelId, message }, { token });
      upsert(response.res);
      return true;
    },
    [channelId, userId, token, upsert],
  );

  const sendImage = useCallback(
    async (file: File, caption: string) => {
      if (channelId === undefined) return;
      const message = await uploadImage(file, { userId, channelId, textMsg: caption.trim() }, token ?? getToken());
      upsert(message);
    },
    [channelId, userId, token, upsert],
  );

  const deleteMessage = useCallback(
    async (id: number) => {
      await api(DeleteMessageById, { msgId: id }, { token });
      remove(id);
    },
    [token, remove],
  );

  const typing = useCallback(() => {
    if (!socket?.connected || !room) return;
    const emit = () => {
      lastTypingEmit.current = Date.now();
      trailingTyping.current = undefined;
      if (socket.connected) socket.emit('typing', { room });
    };
    const wait = lastTypingEmit.current + TYPING_EMIT_MS - Date.now();
    if (wait <= 0) emit();
    else trailingTyping.current ??= setTimeout(emit, wait);
  }, [socket, room]);
  useEffect(() => () => clearTimeout(trailingTyping.current), []);

  const { fetchNextPage } = history;
  const { hasMore: voiceHasMore, loadEarlier: loadEarlierVoice } = voice;
  const loadEarlier = useCallback(async () => {
    await Promise.all([fetchNextPage(), voiceHasMore ? loadEarlierVoice() : undefined]);
  }, [fetchNextPage, voiceHasMore, loadEarlierVoice]);

  return {
    channelId,
    room,
    voice,
    recording,
    canExport,
    canModerate,
    messages,
    isLoading: history.isLoading,
    // The history's first page failed; an earlier page that fails leaves the messages shown as they are.
    error: history.isFetchNextPageError ? null : history.error,
    hasMore: history.hasNextPage || voice.hasMore,
    loadingEarlier: history.isFetchingNextPage,
    loadEarlier,
    typers,
    send,
    sendImage,
    deleteMessage,
    typing,
  };
}
