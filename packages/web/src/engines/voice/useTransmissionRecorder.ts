/**
 * The room's recorder for the voice history: records each transmission while the channel records
 * (`channel.recording`), uploads it when it ends, and sends what waited offline once the link is back.
 * The recorder is one object for the page's life (the voice room keeps it); what it records to is read live.
 */
import { useEffect, useRef, useState } from 'react';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { type RecordingTarget, TransmissionRecorder } from './recorder.ts';
import { VoiceOutbox } from './voiceOutbox.ts';
import { stopVoicePlayback } from './voicePlayback.ts';

export interface RecorderOptions {
  channelId: number | undefined;
  recording: boolean;
  userId: number | undefined;
  token: string | undefined;
  socket: TalkgroupSocket | null;
}

export function useTransmissionRecorder({ channelId, recording, userId, token, socket }: RecorderOptions) {
  const target = useRef<RecordingTarget | null>(null);
  target.current = channelId === undefined ? null : { channelId, recording };
  const who = useRef<{ userId: number; token: string } | null>(null);
  who.current = userId !== undefined && token ? { userId, token } : null;

  const [outbox] = useState(() => new VoiceOutbox(() => who.current));
  const [recorder] = useState(
    () =>
      new TransmissionRecorder({
        target: () => target.current,
        deliver: (transmission) => void outbox.send(transmission),
        pressed: stopVoicePlayback,
      }),
  );

  useEffect(() => {
    const flush = () => void outbox.flush();
    flush();
    socket?.on('connect', flush);
    window.addEventListener('online', flush);
    return () => {
      socket?.off('connect', flush);
      window.removeEventListener('online', flush);
    };
  }, [socket, outbox]);

  useEffect(() => () => outbox.stop(), [outbox]);

  return recorder;
}
