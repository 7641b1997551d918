/**
 * Runs a VoiceRoom for as long as the page shows it, and exposes a read-only debug hook
 * (`window.__talkgroupRoom`) that the browser tests and the latency bench read: peers, received levels,
 * inbound RTP statistics and the time of the last press. It controls nothing.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { RoomSocket, VoiceRoomOptions, VoiceRoomState } from './voiceRoom.ts';
import { VoiceRoom } from './voiceRoom.ts';

export interface VoiceRoomDebugHook {
  readonly room: string;
  readonly selfId: string | null;
  readonly micOn: boolean;
  readonly micReady: boolean;
  readonly mediaProblem: string | null;
  readonly lastMicOnAt: number;
  readonly lastMicOffAt: number;
  peers(): Array<{ id: string; name: string; userId: number | null; connection: string; talking: boolean }>;
  levels(): Record<string, number>;
  rtpLevel(peerId: string): number;
  waitForLevel(peerId: string, threshold: number, timeoutMs: number, above?: boolean): Promise<number | null>;
  inboundAudio(peerId: string): Promise<{ bytesReceived: number; packetsReceived: number } | null>;
}

declare global {
  interface Window {
    __talkgroupRoom?: VoiceRoomDebugHook;
  }
}

function debugHook(engine: VoiceRoom, room: string): VoiceRoomDebugHook {
  return Object.freeze({
    room,
    get selfId() {
      return engine.getSnapshot().selfId;
    },
    get micOn() {
      return engine.getSnapshot().micOn;
    },
    get micReady() {
      return engine.getSnapshot().micReady;
    },
    get mediaProblem() {
      return engine.getSnapshot().mediaProblem;
    },
    get lastMicOnAt() {
      return engine.lastMicOnAt;
    },
    get lastMicOffAt() {
      return engine.lastMicOffAt;
    },
    peers: () =>
      engine.getSnapshot().peers.map(({ id, name, userId, connection, talking }) => ({
        id,
        name,
        userId,
        connection,
        talking,
      })),
    levels: () => engine.levels(),
    rtpLevel: (peerId: string) => engine.rtpLevel(peerId),
    waitForLevel: (peerId: string, threshold: number, timeoutMs: number, above = true) =>
      engine.waitForLevel(peerId, threshold, timeoutMs, above),
    inboundAudio: (peerId: string) => engine.inboundAudio(peerId),
  });
}

const EMPTY: VoiceRoomState = {
  joined: false,
  selfId: null,
  micReady: false,
  micOn: false,
  cameraOn: false,
  mediaProblem: null,
  localStream: null,
  peers: [],
};
const noSubscription = () => () => {};
const emptySnapshot = () => EMPTY;

export interface UseVoiceRoomOptions extends Omit<VoiceRoomOptions, 'socket'> {
  socket: RoomSocket | null;
  /** False until what the room needs (the channel, the ICE servers) is known. */
  enabled: boolean;
}

export function useVoiceRoom(options: UseVoiceRoomOptions): { engine: VoiceRoom | null; state: VoiceRoomState } {
  const [engine, setEngine] = useState<VoiceRoom | null>(null);
  const { socket, enabled, room, name, video, voiceProcessing } = options;
  const iceKey = JSON.stringify(options.iceServers);
  const report = options.reportMicState;

  // biome-ignore lint/correctness/useExhaustiveDependencies: iceKey stands for iceServers; voiceProcessing changes are applied live below
  useEffect(() => {
    if (!socket || !enabled) return;
    const voice = new VoiceRoom({
      socket,
      room,
      name,
      iceServers: JSON.parse(iceKey) as RTCIceServer[],
      video,
      voiceProcessing,
      reportMicState: report,
    });
    setEngine(voice);
    window.__talkgroupRoom = debugHook(voice, room);
    void voice.start();
    return () => {
      voice.leave();
      if (window.__talkgroupRoom?.room === room) delete window.__talkgroupRoom;
      setEngine(null);
    };
  }, [socket, enabled, room, name, video, iceKey, report]);

  useEffect(() => {
    if (engine && voiceProcessing !== undefined) void engine.setVoiceProcessing(voiceProcessing).catch(() => {});
  }, [engine, voiceProcessing]);

  const state = useSyncExternalStore(
    engine?.subscribe ?? noSubscription,
    engine?.getSnapshot ?? emptySnapshot,
    engine?.getSnapshot ?? emptySnapshot,
  );
  return { engine, state };
}
