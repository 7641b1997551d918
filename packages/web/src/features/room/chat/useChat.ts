/**
 * A channel's chat: the history (getchannelmessagelistForAdmin, paged back with beforeId), messages that
 * arrive live (messageResponse and onSendMessage carry the same message: kept once, by id), deletions
 * (onMessageDeleted), sending text and images, and who is typing (typingResponse, cleared after 3 s).
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
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, api } from '../../../api/client.ts';
import { callKey } from '../../../api/queries.ts';
import { getToken } from '../../../api/session.ts';
import type { TalkgroupSocket } from '../../../api/socket.ts';

/** At most one typing event per this interval while the user types. */
const TYPING_EMIT_MS = 1000;

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
    throw new ApiError(UPLOAD_FILE_PATH, response.status, payload?.result);
  }
  return payload.res;
}

function byId(messages: Iterable<Message>): Map<number, Message> {
  return new Map([...messages].map((message) => [message.id, message]));
}

export function useChat({ channelId, room, userId, socket, token }: ChatOptions) {
  const body = { channelId: channelId ?? 0 };
  const history = useQuery({
    queryKey: [...callKey(GetChannelMessageListForAdmin, body), ...(token ? ['link'] : [])],
    queryFn: async ({ signal }) => api(GetChannelMessageListForAdmin, body, { signal, token }),
    enabled: channelId !== undefined,
    staleTime: 0,
  });
  const [messages, setMessages] = useState<Map<number, Message>>(() => new Map());
  const [hasMore, setHasMore] = useState(false);
  const [loadingEarlier, setLoadingEarlier] = useState(false);
  const [typers, setTypers] = useState<Typer[]>([]);
  const deleted = useRef(new Set<number>());
  const lastTypingEmit = useRef(0);

  // Another room in the same page (a link from room to room): start from that room's history.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the channel is the trigger
  useEffect(() => {
    setMessages(new Map());
    setTypers([]);
    setHasMore(false);
    deleted.current = new Set();
  }, [channelId]);

  useEffect(() => {
    if (!history.data) return;
    setMessages((previous) => {
      const next = new Map(previous);
      for (const message of history.data.discussion)
        if (!deleted.current.has(message.id)) next.set(message.id, message);
      return next;
    });
    setHasMore(history.data.hasMore);
  }, [history.data]);

  const upsert = useCallback(
    (message: Message) => {
      if (message.channelId !== channelId || deleted.current.has(message.id)) return;
      setMessages((previous) => new Map(previous).set(message.id, message));
    },
    [channelId],
  );
  const remove = useCallback((id: number) => {
    deleted.current.add(id);
    setMessages((previous) => {
      if (!previous.has(id)) return previous;
      const next = new Map(previous);
      next.delete(id);
      return next;
    });
  }, []);

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

  const sorted = useMemo(() => [...messages.values()].sort((a, b) => a.id - b.id), [messages]);

  const send = useCallback(
    async (text: string) => {
      // Spec section 5: sent only when non-blank after trimming.
      const message = text.trim();
      if (!message || channelId === undefined) return false;
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
    const now = Date.now();
    if (!socket?.connected || !room || now - lastTypingEmit.current < TYPING_EMIT_MS) return;
    lastTypingEmit.current = now;
    socket.emit('typing', { room });
  }, [socket, room]);

  const loadEarlier = useCallback(async () => {
    const oldest = sorted[0];
    if (!oldest || channelId === undefined) return;
    setLoadingEarlier(true);
    try {
      const page = await api(GetChannelMessageListForAdmin, { channelId, beforeId: oldest.id }, { token });
      setMessages((previous) => {
        const next = byId(previous.values());
        for (const message of page.discussion) if (!deleted.current.has(message.id)) next.set(message.id, message);
        return next;
      });
      setHasMore(page.hasMore);
    } finally {
      setLoadingEarlier(false);
    }
  }, [sorted, channelId, token]);

  return {
    messages: sorted,
    isLoading: history.isLoading,
    error: history.error,
    hasMore,
    loadingEarlier,
    loadEarlier,
    typers,
    send,
    sendImage,
    deleteMessage,
    typing,
  };
}
