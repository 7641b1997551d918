/**
 * Runs a VoiceRoom for as long as the page shows it. A page may ask for the room's read-only diagnostics
 * (diagnostics.ts: received levels and statistics for the browser tests and the latency bench) before it
 * loads: `window.__talkgroupDiagnostics = true` (Playwright's addInitScript) or `?diagnostics` in its address.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { storedVoiceProcessing } from './useVoiceProcessing.ts';
import type { RoomSocket, VoiceRoomOptions, VoiceRoomState } from './voiceRoom.ts';
import { VoiceRoom } from './voiceRoom.ts';

declare global {
  interface Window {
    /** Set before the page loads to get window.__talkgroupRoom (see diagnostics.ts). */
    __talkgroupDiagnostics?: boolean;
  }
}

function diagnosticsRequested(): boolean {
  return window.__talkgroupDiagnostics === true || new URLSearchParams(window.location.search).has('diagnostics');
}

const EMPTY: VoiceRoomState = {
  room: '',
  mode: 'talk',
  transport: 'mesh',
  linkProblem: null,
  joined: false,
  reconnecting: false,
  selfId: null,
  micReady: false,
  micOn: false,
  floorHolder: null,
  floorWait: null,
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
  /**
   * A room heard beside the page's own (the scan's): never the diagnostics' `__talkgroupRoom`, only in
   * `__talkgroupRooms`. By default a talking room is the page's own, a listening one is not.
   */
  beside?: boolean;
}

export function useVoiceRoom(options: UseVoiceRoomOptions): { engine: VoiceRoom | null; state: VoiceRoomState } {
  const [engine, setEngine] = useState<VoiceRoom | null>(null);
  const { socket, enabled, room, name, video, mode, linkTones, iceTransportPolicy, beside } = options;
  // Every room follows the device's choice (issue 37: the desk's rooms processed the microphone whatever the
  // choice, and a processed tone arrived 20 dB under a member's), unless its page passes its own.
  const [storedProcessing] = useState(storedVoiceProcessing);
  const voiceProcessing = options.voiceProcessing ?? storedProcessing;
  const iceKey = JSON.stringify(options.iceServers);
  // The room is made with the ICE servers it first gets; renewed ones (TURN credentials) reach it below.
  const iceAtStart = useRef(iceKey);
  if (!enabled) iceAtStart.current = iceKey;
  const report = options.reportMicState;
  const recorder = options.recorder;
  const output = options.output;

  // biome-ignore lint/correctness/useExhaustiveDependencies: ICE servers are renewed live below; voiceProcessing changes too
  useEffect(() => {
    if (!socket || !enabled) return;
    const voice = new VoiceRoom({
      socket,
      room,
      name,
      iceServers: JSON.parse(iceAtStart.current) as RTCIceServer[],
      iceTransportPolicy,
      video,
      voiceProcessing,
      reportMicState: report,
      recorder,
      mode,
      linkTones,
      output,
    });
    setEngine(voice);
    let left = false;
    let detachDiagnostics: (() => void) | undefined;
    if (diagnosticsRequested()) {
      void import('./diagnostics.ts').then(({ attachDiagnostics }) => {
        if (!left) detachDiagnostics = attachDiagnostics(voice, room, mode !== 'listen' && !beside);
      });
    }
    void voice.start();
    return () => {
      left = true;
      voice.leave();
      detachDiagnostics?.();
      setEngine(null);
    };
  }, [socket, enabled, room, name, video, report, recorder, mode, linkTones, iceTransportPolicy, output, beside]);

  useEffect(() => {
    engine?.setIce({ iceServers: JSON.parse(iceKey) as RTCIceServer[], iceTransportPolicy });
  }, [engine, iceKey, iceTransportPolicy]);

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
