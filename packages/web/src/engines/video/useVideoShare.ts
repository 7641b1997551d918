/**
 * The member's live video from /talk (issue 61 item 1): the rear camera (switchable), no sound (the talk button
 * keeps the voice), `video_start` in the channel's room (answered at once with the stream's id, or refused with
 * the server's sentence: a listen-only member), one connection per viewer (VideoSharer), and the stream recorded
 * and uploaded once it is over where the channel records (kept in the browser until the server has it:
 * videoOutbox.ts; what an earlier page left unsent goes from the next). Through the media server (the start's
 * answer says `via: 'server'`) one connection to it instead (VideoPublisher, simulcast), and the server records
 * the stream itself: nothing is uploaded. A start that names a dispatcher's request is the member's yes; one
 * without consent shows that the member is watched while it lasts.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { getToken, useSession } from '../../api/session.ts';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { uploadWithRetry } from './uploadWithRetry.ts';
import { forgetRecording, keepRecording, waitingRecordings } from './videoOutbox.ts';
import { type VideoIce, VideoSharer } from './videoPeer.ts';
import { VideoPublisher, type VideoSender } from './videoPublisher.ts';
import { isFinalRefusal, StreamRecorder, uploadRecording } from './videoRecording.ts';

type Facing = 'environment' | 'user';

export type VideoProblem = { kind: 'refused'; sentence: string } | { kind: 'camera' };

export interface VideoUpload {
  state: 'uploading' | 'failed' | 'done';
  /** 0..1 */
  progress: number;
  error?: unknown;
}

interface Session {
  streamId: string;
  camera: MediaStream;
  sharer: VideoSender;
  recorder: StreamRecorder | null;
  facing: Facing;
}

export interface VideoShareOptions {
  socket: TalkgroupSocket | null;
  room: string;
  /** The page is in the channel's room (video_start needs it). */
  joined: boolean;
  /** The channel records: the stream is uploaded after it (else the server would refuse it). */
  recording: boolean;
  ice: VideoIce | undefined;
}

function camera(facing: Facing): Promise<MediaStream> {
  return navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: { ideal: facing } } });
}

/** `video_stop`, answered, or given up after a few seconds (a socket gone: its stream ends with it). */
function stopOnServer(socket: TalkgroupSocket, room: string, streamId: string): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 5000);
    socket.emit('video_stop', { room, streamId }, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

type Recording = { video: Blob; durationMs: number; streamId: string };

/** A 409 without a code: the server has this stream's recording already (another page sent it). */
function alreadyKept(error: unknown): boolean {
  return error instanceof ApiError && error.status === 409 && error.code === undefined;
}

function release(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

export function useVideoShare({ socket, room, joined, recording, ice }: VideoShareOptions) {
  const [phase, setPhase] = useState<'idle' | 'starting' | 'live'>('idle');
  const [preview, setPreview] = useState<MediaStream | null>(null);
  const [problem, setProblem] = useState<VideoProblem | null>(null);
  const [withoutConsent, setWithoutConsent] = useState(false);
  const [upload, setUpload] = useState<VideoUpload | null>(null);
  const session = useRef<Session | null>(null);
  const starting = useRef(false);
  const mounted = useRef(true);
  /** The last recording the server has not taken yet: "Retry" sends it again. */
  const pending = useRef<Recording | null>(null);
  const userId = useSession()?.user?.id;
  const settings = useRef({ socket, room, recording, ice, userId });
  settings.current = { socket, room, recording, ice, userId };

  const deliver = useCallback(async (waiting: Recording) => {
    setUpload({ state: 'uploading', progress: 0 });
    try {
      await uploadWithRetry(
        () => uploadRecording(waiting, getToken(), (progress) => setUpload({ state: 'uploading', progress })),
        { isFinal: isFinalRefusal },
      );
    } catch (error) {
      if (!alreadyKept(error)) {
        if (isFinalRefusal(error)) void forgetRecording(waiting.streamId);
        setUpload({ state: 'failed', progress: 0, error });
        return;
      }
    }
    void forgetRecording(waiting.streamId);
    if (pending.current === waiting) pending.current = null;
    setUpload({ state: 'done', progress: 1 });
  }, []);
  const send = useCallback(async () => {
    if (pending.current) await deliver(pending.current);
  }, [deliver]);

  // What an earlier page of this member's left unsent (closed or reloaded while it uploaded) goes now.
  useEffect(() => {
    if (userId === undefined) return;
    let gone = false;
    void (async () => {
      for (const waiting of await waitingRecordings(userId)) {
        if (gone) return;
        if (pending.current?.streamId === waiting.streamId) continue;
        pending.current ??= waiting;
        await deliver(waiting);
      }
    })();
    return () => {
      gone = true;
    };
  }, [userId, deliver]);

  /**
   * The stream is over (stopped here or ended by the server): the camera goes at once, the recording is sent once
   * the server has ended the stream (`stopped`: a stream still live is refused).
   */
  const end = useCallback(
    (over: Session, stopped: Promise<unknown> = Promise.resolve()) => {
      if (session.current !== over) return;
      session.current = null;
      over.sharer.stop();
      release(over.camera);
      setPhase('idle');
      setPreview(null);
      setWithoutConsent(false);
      const recorder = over.recorder;
      if (!recorder) return;
      void Promise.all([recorder.finish(), stopped]).then(async ([{ video, durationMs }]) => {
        if (video.size === 0) return;
        const waiting = { video, durationMs, streamId: over.streamId };
        pending.current = waiting;
        // Kept in the browser first: a page closed while it uploads loses nothing.
        if (settings.current.userId !== undefined) await keepRecording({ ...waiting, userId: settings.current.userId });
        await deliver(waiting);
      });
    },
    [deliver],
  );

  const start = useCallback(
    async (request?: { requestId: string; withoutConsent: boolean }) => {
      const { socket: link, room: roomKey, recording: records, ice: servers } = settings.current;
      if (!link || !servers) return;
      if (request?.withoutConsent) setWithoutConsent(true);
      if (session.current || starting.current) {
        // Already sharing here: naming the request is the member's yes, on the same stream.
        if (request) link.emit('video_start', { room: roomKey, requestId: request.requestId });
        return;
      }
      starting.current = true;
      setProblem(null);
      setPhase('starting');
      let stream: MediaStream;
      try {
        stream = await camera('environment');
      } catch {
        starting.current = false;
        setPhase('idle');
        setProblem({ kind: 'camera' });
        return;
      }
      const sharer = new VideoSharer(link, stream, servers);
      const answer = await new Promise<{ success: boolean; streamId?: string; result?: string; via?: string }>(
        (resolve) => link.emit('video_start', { room: roomKey, requestId: request?.requestId }, resolve),
      );
      starting.current = false;
      if (!answer.success || !answer.streamId) {
        sharer.stop();
        release(stream);
        setPhase('idle');
        setWithoutConsent(false);
        setProblem({ kind: 'refused', sentence: answer.result ?? '' });
        return;
      }
      const throughServer = answer.via === 'server';
      let sender: VideoSender = sharer;
      if (throughServer) {
        sharer.stop();
        const publisher = new VideoPublisher(link, stream, servers);
        sender = publisher;
        void publisher.publish(answer.streamId).catch((error: unknown) => {
          const current = session.current;
          if (current?.sharer !== publisher) return;
          // Nothing reaches the viewers: the stream ends, with the server's sentence.
          end(current, stopOnServer(link, roomKey, current.streamId));
          setProblem({ kind: 'refused', sentence: error instanceof Error ? error.message : String(error) });
        });
      } else sharer.started(answer.streamId);
      session.current = {
        streamId: answer.streamId,
        camera: stream,
        sharer: sender,
        // Through the media server, the server records the stream itself.
        recorder: records && !throughServer ? new StreamRecorder(stream) : null,
        facing: 'environment',
      };
      setPreview(stream);
      setPhase('live');
    },
    [end],
  );

  const stop = useCallback(async () => {
    const current = session.current;
    const link = settings.current.socket;
    if (!current || !link) return;
    // The upload waits for the stop's answer: a stream still live is refused (409).
    const stopped = stopOnServer(link, settings.current.room, current.streamId);
    end(current, stopped);
    await stopped;
  }, [end]);

  const switchCamera = useCallback(async () => {
    const current = session.current;
    if (!current) return;
    const facing: Facing = current.facing === 'environment' ? 'user' : 'environment';
    // A phone opens one camera at a time: the old one goes first.
    release(current.camera);
    try {
      const next = await camera(facing);
      const [track] = next.getVideoTracks();
      if (session.current !== current || !track) {
        release(next);
        return;
      }
      await current.sharer.replaceTrack(track);
      current.recorder?.follow(next);
      current.camera = next;
      current.facing = facing;
      setPreview(next);
    } catch {
      setProblem({ kind: 'camera' });
    }
  }, []);

  // The server ended this page's stream (its membership removed, the channel gone, made listen-only).
  useEffect(() => {
    if (!socket) return;
    const onEnded = (payload: { streamId: string; reason: string }) => {
      // `no_right` is a viewer's alone (issue 69): the stream itself goes on.
      if (payload.reason !== 'no_right' && session.current?.streamId === payload.streamId) end(session.current);
    };
    socket.on('video_ended', onEnded);
    return () => {
      socket.off('video_ended', onEnded);
    };
  }, [socket, end]);

  // The page goes (or leaves the room): its stream stops, and its recording is still sent.
  useEffect(() => {
    if (joined) return;
    const current = session.current;
    if (current) end(current);
  }, [joined, end]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      const current = session.current;
      const link = settings.current.socket;
      if (current) end(current, link ? stopOnServer(link, settings.current.room, current.streamId) : undefined);
    };
  }, [end]);

  return {
    phase,
    preview,
    problem,
    withoutConsent,
    upload,
    start,
    stop,
    switchCamera,
    retryUpload: send,
    ready: Boolean(socket && joined && ice),
  };
}

export type VideoShare = ReturnType<typeof useVideoShare>;
