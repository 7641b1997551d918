/**
 * Scan and talk-back (issue 34): while /talk is open, the member hears every one of its channels, not only the
 * one on screen, on the tab's one socket (one voice room per channel, as the dispatch desk's tiles). Each
 * channel can be taken out of the scan ("Scan {channel}"), kept per user on the server (getScanList /
 * setChannelScan, scanListChanged for the member's other devices). While the member is busy, the scan is off:
 * transmissions go to the missed list.
 *
 * Talk-back: for TALK_BACK_MS after another channel's transmission ended, holding the button talks on that
 * channel ("Reply on Atelier"); after that reply, or once the time is over, it talks on the channel on screen
 * again. A transmission on the channel on screen in between ends the chance.
 */
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { GetMyChannels, GetScanList, type ScanEntry, SetChannelScan } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatch } from 'react-router';
import { callKey, useApiMutation, useApiQuery } from '../../api/queries.ts';
import { useServerEvents, useSharedSocket } from '../../api/serverEvents.ts';
import { getToken, useSession } from '../../api/session.ts';
import type { TalkgroupSocket } from '../../api/socket.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { failureNotice } from '../../components/failureNotice.ts';
import { useNotify } from '../../components/Notifier.tsx';
import { useTransmissionRecorder, useVoiceRoom, type VoiceRoom } from '../../engines/voice/index.ts';
import { useMissed } from './missed.tsx';

/** How long after another channel's transmission ended a press answers on that channel. */
export const TALK_BACK_MS = 5000;

export interface HeardChannel {
  channelId: number;
  name: string;
  talkers: string[];
}

export interface ScanState {
  /** The scanned channels where someone talks now (the channel on screen excluded). */
  heard: HeardChannel[];
  /** The channel a press answers on now (talk-back), or null: the channel on screen. */
  replyTo: { channelId: number; name: string } | null;
  /** The scanned channel the member talks on now (a talk-back held), or null. */
  talkingOn: number | null;
  /** Starts (true) or ends a talk on a scanned channel; false when that channel is not scanned here. */
  talk: (channelId: number, on: boolean) => boolean;
  /** The channel on screen had a transmission: a press talks there again. */
  endTalkBack: () => void;
}

const noScan: ScanState = { heard: [], replyTo: null, talkingOn: null, talk: () => false, endTalkBack: () => {} };
const ScanContext = createContext<ScanState>(noScan);

export function useScan(): ScanState {
  return useContext(ScanContext);
}

interface ScannedChannel {
  id: number;
  name: string;
  rtcSession: string;
  recording: boolean;
}

/** The scan list (each of the member's channels and whether it is scanned), fresh across its devices. */
export function useScanList() {
  const queryClient = useQueryClient();
  const query = useApiQuery(GetScanList, {});
  useServerEvents(['scanListChanged', 'resync', 'onChannelsChanged'], () => {
    void queryClient.invalidateQueries({ queryKey: callKey(GetScanList) });
  });
  const off = new Set((query.data?.res ?? []).filter((entry) => !entry.scan).map((entry) => entry.channelId));
  return { loaded: query.data !== undefined, scanned: (channelId: number) => !off.has(channelId) };
}

/** "Scan {channel}": the switch shows the choice at once and puts it back, with a sentence, if the server refuses. */
export function ScanSwitch({ channel }: { channel: { id: number; name: string } }) {
  const { t } = useTranslation('talk');
  const notify = useNotify();
  const queryClient = useQueryClient();
  const key = callKey(GetScanList, {});
  const { scanned, loaded } = useScanList();
  const change = useApiMutation(SetChannelScan, {
    onMutate: ({ channelId, scan }) => {
      void queryClient.cancelQueries({ queryKey: key });
      queryClient.setQueryData<{ success: true; res: ScanEntry[] }>(key, (data) =>
        data
          ? { ...data, res: data.res.map((entry) => (entry.channelId === channelId ? { ...entry, scan } : entry)) }
          : data,
      );
    },
    onError: (error) => {
      notify({ ...failureNotice(t, error), message: t('scan.saveFailed', { channel: channel.name }) });
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: key }),
  });
  return (
    <FormControlLabel
      sx={{ minHeight: 48, mr: 0, ml: 0 }}
      control={
        <Switch
          checked={scanned(channel.id)}
          disabled={!loaded}
          onChange={(event) => change.mutate({ channelId: channel.id, scan: event.target.checked })}
          slotProps={{ input: { 'aria-label': t('scan.switch', { channel: channel.name }) } }}
        />
      }
      label={<span aria-hidden>{t('scan.switch', { channel: channel.name })}</span>}
    />
  );
}

/** "On Atelier: Marie": who is heard now on the scanned channels. */
export function ScanHeard() {
  const { t } = useTranslation('talk');
  const { heard } = useScan();
  return (
    <Typography
      role="status"
      aria-live="polite"
      data-testid="scan-heard"
      sx={{ textAlign: 'center', fontWeight: 700, color: 'warning.dark', minHeight: heard.length ? 24 : 0 }}
    >
      {heard.map((entry) => t('scan.heard', { channel: entry.name, names: entry.talkers.join(', ') })).join(' · ')}
    </Typography>
  );
}

interface RoomReport {
  engine: VoiceRoom | null;
  talkers: string[];
  micOn: boolean;
}

/** One scanned channel's voice room, heard on the tab's socket (talk mode: a talk-back is one press away). */
function ScanRoom(props: {
  channel: ScannedChannel;
  socket: TalkgroupSocket;
  iceServers: RTCIceServer[];
  iceTransportPolicy: RTCIceTransportPolicy | undefined;
  self: { id: number; name: string };
  report: (channelId: number, report: RoomReport | null) => void;
}) {
  const { channel, socket, self, report } = props;
  const { t } = useTranslation('talk');
  const recorder = useTransmissionRecorder({
    channelId: channel.id,
    recording: channel.recording,
    userId: self.id,
    token: getToken() ?? undefined,
    socket,
  });
  const { engine, state } = useVoiceRoom({
    socket,
    enabled: true,
    room: channel.rtcSession,
    name: self.name,
    mode: 'talk',
    iceServers: props.iceServers,
    iceTransportPolicy: props.iceTransportPolicy,
    linkTones: false,
    recorder,
    beside: true,
  });
  const talkers = state.peers.filter((peer) => peer.talking).map((peer) => peer.name || t('channel.unnamed'));
  const talkersKey = talkers.join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: talkersKey stands for talkers
  useEffect(() => {
    report(channel.id, { engine, talkers, micOn: state.micOn });
  }, [report, channel.id, engine, talkersKey, state.micOn]);
  useEffect(() => () => report(channel.id, null), [report, channel.id]);
  return null;
}

/** Runs the scan for the /talk pages below it, and gives them what it hears (useScan). */
export function ScanProvider({ children }: { children: ReactNode }) {
  const onScreen = Number(useMatch('/talk/:channelId')?.params.channelId ?? Number.NaN);
  const user = useSession()?.user;
  const self = useMemo(
    () => ({
      id: user?.id ?? 0,
      name: user?.display_name || `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim(),
    }),
    [user?.id, user?.display_name, user?.firstName, user?.lastName],
  );
  const channels = useApiQuery(GetMyChannels, {});
  const scanList = useScanList();
  const { busy, loaded: statusLoaded } = useMissed();
  const config = useClientConfig();
  const { socket } = useSharedSocket();

  const rooms = useRef(new Map<number, RoomReport>());
  const [reports, setReports] = useState<ReadonlyMap<number, RoomReport>>(() => new Map());
  const [lastEnded, setLastEnded] = useState<{ channelId: number; at: number } | null>(null);
  const [, setTick] = useState(0);

  const report = useCallback((channelId: number, next: RoomReport | null) => {
    const before = rooms.current.get(channelId);
    if (next) rooms.current.set(channelId, next);
    else rooms.current.delete(channelId);
    // A transmission of someone else ended there: a press answers on that channel for a while.
    if (before?.talkers.length && next && next.talkers.length === 0) setLastEnded({ channelId, at: performance.now() });
    setReports(new Map(rooms.current));
  }, []);

  // The talk-back's time runs out: the button talks on the channel on screen again.
  useEffect(() => {
    if (!lastEnded) return;
    const timer = setTimeout(
      () => setTick((tick) => tick + 1),
      Math.max(0, lastEnded.at + TALK_BACK_MS - performance.now()) + 20,
    );
    return () => clearTimeout(timer);
  }, [lastEnded]);

  const byId = new Map((channels.data?.res ?? []).map((channel) => [channel.id, channel]));
  const running =
    socket && config.data && scanList.loaded && statusLoaded && !busy
      ? [...byId.values()].filter((channel) => channel.id !== onScreen && scanList.scanned(channel.id))
      : [];

  const talkingOn = [...reports].find(([, entry]) => entry.micOn)?.[0] ?? null;
  const withinTalkBack =
    lastEnded !== null &&
    lastEnded.channelId !== onScreen &&
    reports.has(lastEnded.channelId) &&
    performance.now() - lastEnded.at < TALK_BACK_MS;
  const replyId = talkingOn ?? (withinTalkBack ? lastEnded.channelId : null);
  const replyChannel = replyId === null ? undefined : byId.get(replyId);

  const talk = useCallback((channelId: number, on: boolean) => {
    const engine = rooms.current.get(channelId)?.engine;
    if (!engine) return false;
    engine.setMicEnabled(on);
    // After the reply, a press talks on the channel on screen again.
    if (!on) setLastEnded(null);
    return true;
  }, []);
  const endTalkBack = useCallback(() => setLastEnded(null), []);

  const heard: HeardChannel[] = [];
  for (const [channelId, entry] of reports) {
    const channel = byId.get(channelId);
    if (channel && entry.talkers.length) heard.push({ channelId, name: channel.name, talkers: entry.talkers });
  }
  const heardKey = JSON.stringify(heard);
  // biome-ignore lint/correctness/useExhaustiveDependencies: heardKey stands for heard
  const value = useMemo<ScanState>(
    () => ({
      heard,
      replyTo: replyChannel ? { channelId: replyChannel.id, name: replyChannel.name } : null,
      talkingOn,
      talk,
      endTalkBack,
    }),
    [heardKey, replyChannel?.id, replyChannel?.name, talkingOn, talk, endTalkBack],
  );

  return (
    <ScanContext.Provider value={value}>
      {socket && config.data
        ? running.map((channel) => (
            <ScanRoom
              key={channel.id}
              channel={channel}
              socket={socket}
              iceServers={config.data?.iceServers ?? []}
              iceTransportPolicy={config.data?.iceTransportPolicy}
              self={self}
              report={report}
            />
          ))
        : null}
      {children}
    </ScanContext.Provider>
  );
}
