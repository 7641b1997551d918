/**
 * /dispatch (issue 27), for administrators and dispatchers: the desk of an operation. Every monitored channel
 * is a tile, heard at once on the page's one socket (one voice room and one transport per channel, each through
 * a gain of its own); the selected tile plays at full level, the others at the unselected level. Talk on one
 * tile (its button, or the space bar on the selected one; keys 1 to 9 select), or on all of them at once (All
 * call); patch channels through the media server; play the last transmissions; take an SOS, which takes over
 * its tile; call a member privately. The monitor list, volumes and mutes are saved on the server.
 * Issue 70: lone work live, its list one click away in the toolbar; a channel's chat in a side panel.
 */
import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Typography from '@mui/material/Typography';
import { type DispatchAnswer, type DispatchRequest, GetPatches } from '@talkgroup/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../api/client.ts';
import { useChannels, useLiveChannels } from '../../api/directory.ts';
import { callKey, useApiQuery } from '../../api/queries.ts';
import { useServerEvent, useSharedSocket } from '../../api/serverEvents.ts';
import { useMay, useSession } from '../../api/session.ts';
import { useClientConfig } from '../../api/useClientConfig.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { AliasCallButton, CallHistory, CallSettingsSwitch, followPlacedCall } from '../../engines/calls/index.ts';
import { useEmergencyAlerts } from '../../engines/emergency/index.ts';
import type { VoiceRoom } from '../../engines/voice/index.ts';
import { AllCallButton } from './AllCallButton.tsx';
import { ChannelChatDrawer } from './ChannelChatDrawer.tsx';
import type { ChannelOutput } from './channelOutput.ts';
import { DispatchAlerts } from './DispatchAlerts.tsx';
import { DispatchMap } from './DispatchMap.tsx';
import { DispatchTile, type TileChannel } from './DispatchTile.tsx';
import { attachDispatchDiagnostics, diagnosticsRequested } from './dispatchDiagnostics.ts';
import { LastHeardStrip } from './LastHeardStrip.tsx';
import { LoneWorkersButton } from './lone/LoneWorkersPanel.tsx';
import { useLoneWorkerUpdates } from './lone/useLoneWorkers.ts';
import { MonitorListDialog } from './MonitorListDialog.tsx';
import { PatchesPanel } from './PatchesPanel.tsx';
import { QueuePanel } from './queue/QueuePanel.tsx';
import { useDispatchQueue } from './queue/useDispatchQueue.ts';
import { RegroupPanel, useRegroupPicks } from './regroup/RegroupPanel.tsx';
import { useDispatchDesk } from './useDispatchDesk.ts';
import { useLastHeard } from './useLastHeard.ts';
import { useMonitorList } from './useMonitorList.ts';
import { useTalkers } from './useTalkers.ts';

/**
 * A screen at most this high (1280x720, a laptop's) tightens what comes above the tiles, so that a tile's title,
 * state and talk button show without scrolling, an SOS and its band included (issue 58).
 */
const SHORT_SCREEN_PX = 800;
const SHORT_SCREEN = `@media (max-height: ${SHORT_SCREEN_PX}px)`;

export default function DispatchPage() {
  const { t } = useTranslation('dispatch');
  const self = useSelf();
  const { socket } = useSharedSocket();
  const config = useClientConfig();
  const channels = useChannels();
  useLiveChannels();
  const { list, query, update, saveError } = useMonitorList();
  const alerts = useEmergencyAlerts();
  const desk = useDispatchDesk(list, alerts.open);
  const talkers = useTalkers();
  const [picking, setPicking] = useState(false);
  const { may, somewhere } = useMay();
  const dispatches = somewhere('channel.dispatch');
  const queue = useDispatchQueue(dispatches ? socket : null);
  const regroupPicks = useRegroupPicks();
  useLoneWorkerUpdates();
  const [chatOf, setChatOf] = useState<number | null>(null);

  const { patches, patchedWith } = usePatchedWith();

  const known = useMemo(
    () => new Map((channels.data?.res ?? []).map((channel) => [channel.id, channel])),
    [channels.data],
  );
  const tiles = (list?.channels ?? []).flatMap((entry) => {
    const channel = known.get(entry.channelId);
    return channel ? [{ entry, channel }] : [];
  });
  const channelName = useCallback((id: number) => known.get(id)?.name ?? '', [known]);
  const tileKey = tiles.map(({ channel }) => `${channel.id}:${channel.name}`).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: tileKey stands for the tiles' channels
  const mapChannels = useMemo(() => tiles.map(({ channel }) => ({ id: channel.id, name: channel.name })), [tileKey]);
  const lastHeard = useLastHeard(tiles.map(({ channel }) => channel.id));

  const { voices, onVoice } = useTileVoices();

  const listRef = useRef(list);
  listRef.current = list;
  const setEntry = useCallback(
    (channelId: number, change: { volume?: number; muted?: boolean }, later = false) => {
      const current = listRef.current;
      if (!current) return;
      update(
        {
          ...current,
          channels: current.channels.map((entry) => (entry.channelId === channelId ? { ...entry, ...change } : entry)),
        },
        { later },
      );
    },
    [update],
  );
  const onVolume = useCallback(
    (channelId: number, volume: number, committed: boolean) => setEntry(channelId, { volume }, !committed),
    [setEntry],
  );
  const onMute = useCallback((channelId: number, muted: boolean) => setEntry(channelId, { muted }), [setEntry]);

  // A regroup just made (issue 59), or a request answered on its channel: monitored if it is not yet, and
  // selected, so that the desk talks to its members at once.
  const monitorAndSelect = useCallback(
    (channelId: number) => {
      const current = listRef.current;
      if (current && !current.channels.some((entry) => entry.channelId === channelId))
        update({ ...current, channels: [...current.channels, { channelId, volume: 100, muted: false }] });
      desk.select(channelId);
    },
    [update, desk.select],
  );

  // A request taken: the private call the server placed goes on here, or its channel's tile is selected (added
  // to the monitored tiles first if it is not one) so that the dispatcher presses to talk.
  const onTaken = useCallback(
    (request: DispatchRequest, answer: DispatchAnswer) => {
      if (answer === 'private') {
        if (request.callId !== undefined) void followPlacedCall(request.callId, self.id).catch(() => {});
        return;
      }
      monitorAndSelect(request.channelId);
    },
    [self.id, monitorAndSelect],
  );

  const allCallTargets = () => {
    const chosen = desk.checkedIds.length > 0 ? desk.checkedIds : tiles.map(({ channel }) => channel.id);
    return tiles
      .filter(({ channel }) => chosen.includes(channel.id))
      .map(({ channel }) => ({ room: channel.rtcSession, name: channel.name, channelId: channel.id }));
  };
  const chatChannel = tiles.find(({ channel }) => channel.id === chatOf)?.channel;
  const sosAlerts = [...desk.sosBy.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

  return (
    <>
      <PageHeader
        title={t('title')}
        subtitle={t('subtitle')}
        compactBelowHeight={SHORT_SCREEN_PX}
        actions={
          <Button variant="outlined" startIcon={<PlaylistAddCheckIcon />} onClick={() => setPicking(true)}>
            {t('monitor.open', { count: tiles.length })}
          </Button>
        }
      />
      <Paper
        variant="outlined"
        sx={{
          p: 1.5,
          mb: 2,
          borderRadius: 3,
          display: 'flex',
          alignItems: 'center',
          gap: 3,
          flexWrap: 'wrap',
          [SHORT_SCREEN]: { py: 1, mb: 1.5 },
        }}
      >
        <AllCallButton
          socket={socket}
          targets={allCallTargets}
          engineOf={(room) => voices.current.get(room)?.engine}
          disabled={tiles.length === 0}
        />
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minWidth: 260 }}>
          <Typography variant="body2" id="unselected-level">
            {t('unselected.label')}
          </Typography>
          <Slider
            size="small"
            value={list?.unselectedVolume ?? 40}
            disabled={!list}
            onChange={(_event, value) =>
              list && update({ ...list, unselectedVolume: value as number }, { later: true })
            }
            slotProps={{ input: { 'aria-labelledby': 'unselected-level' } }}
            sx={{ width: 160 }}
          />
        </Box>
        <CallSettingsSwitch />
        <AliasCallButton />
        <LoneWorkersButton />
      </Paper>
      {saveError ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {errorMessage(saveError, t('monitor.saveFailed'))}
        </Alert>
      ) : null}
      <DispatchAlerts
        alerts={sosAlerts}
        taking={alerts.acknowledge.isPending}
        onTake={(alertId) => alerts.acknowledge.mutate({ alertId })}
      />
      {dispatches ? (
        <QueuePanel
          queue={queue}
          selfId={self.id}
          dispatchesAll={may('channel.dispatch')}
          onTaken={onTaken}
          shortScreen={SHORT_SCREEN}
        />
      ) : null}
      {query.isSuccess && tiles.length === 0 ? (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('empty')}
        </Alert>
      ) : null}
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          // 340 px at least: the title, an SOS and "Sélectionné" on one line (issue 58: at 300, "1. Q…").
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(340px, 100%), 1fr))',
          mb: 3,
        }}
      >
        {tiles.map(({ entry, channel }, index) => {
          const tile: TileChannel = {
            id: channel.id,
            name: channel.name,
            rtcSession: channel.rtcSession,
            recording: channel.recording,
            connected: channel.connected,
            usersCount: channel.usersCount,
          };
          return (
            <DispatchTile
              key={channel.id}
              channel={tile}
              index={index + 1}
              selected={desk.selected === channel.id}
              volume={entry.volume}
              muted={entry.muted}
              level={desk.levels.get(channel.id) ?? 0}
              checked={desk.checked.has(channel.id)}
              sos={desk.sosBy.get(channel.id)?.display_name ?? null}
              patchedWith={patchedWith(channel.id)}
              talkers={[...(talkers.get(channel.rtcSession)?.values() ?? [])]}
              last={lastHeard.find((item) => item.channelId === channel.id)}
              socket={socket}
              iceServers={config.data?.iceServers}
              self={self}
              onSelect={desk.select}
              onVolume={onVolume}
              onMute={onMute}
              onCheck={desk.check}
              onOpenChat={setChatOf}
              onVoice={onVoice}
            />
          );
        })}
      </Box>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr 1fr' }, mb: 3 }}>
        <LastHeardStrip items={lastHeard} channelName={channelName} />
        <CallHistory />
        <PatchesPanel
          patches={patches}
          checked={tiles
            .filter(({ channel }) => desk.checked.has(channel.id))
            .map(({ channel }) => ({ id: channel.id, name: channel.name }))}
        />
      </Box>
      {dispatches ? (
        <RegroupPanel channels={mapChannels} selfId={self.id} picks={regroupPicks} onRegrouped={monitorAndSelect} />
      ) : null}
      <DispatchMap channels={mapChannels} regroupPicks={dispatches ? regroupPicks : undefined} />
      {chatChannel ? (
        <ChannelChatDrawer channel={chatChannel} socket={socket} selfId={self.id} onClose={() => setChatOf(null)} />
      ) : null}
      <MonitorListDialog
        open={picking}
        channels={(channels.data?.res ?? []).map((channel) => ({ id: channel.id, name: channel.name }))}
        monitored={tiles.map(({ channel }) => channel.id)}
        onClose={() => setPicking(false)}
        onSave={(ids) => {
          setPicking(false);
          const kept = new Map((list?.channels ?? []).map((entry) => [entry.channelId, entry]));
          update({
            unselectedVolume: list?.unselectedVolume ?? 40,
            channels: ids.map((channelId) => kept.get(channelId) ?? { channelId, volume: 100, muted: false }),
          });
        }}
      />
    </>
  );
}

/** The names of the channels patched with each channel (issue 27), read again when the patches change. */
function usePatchedWith() {
  const client = useQueryClient();
  const patches = useApiQuery(GetPatches, {});
  useServerEvent('patchesChanged', () => void client.invalidateQueries({ queryKey: callKey(GetPatches) }));
  const list = patches.data?.res ?? [];
  const patchedWith = (channelId: number) =>
    list
      .filter((patch) => patch.channels.some((channel) => channel.id === channelId))
      .flatMap((patch) => patch.channels.filter((channel) => channel.id !== channelId).map((channel) => channel.name));
  return { patches: list, patchedWith };
}

/** Each tile's voice room and output: the all call talks through them, the diagnostics read them. */
function useTileVoices() {
  const voices = useRef(new Map<string, { engine: VoiceRoom; output: ChannelOutput }>());
  const onVoice = useCallback((room: string, voice: { engine: VoiceRoom; output: ChannelOutput } | null) => {
    if (voice) voices.current.set(room, voice);
    else voices.current.delete(room);
  }, []);
  useEffect(() => {
    if (!diagnosticsRequested()) return;
    return attachDispatchDiagnostics(() => new Map([...voices.current].map(([room, voice]) => [room, voice.output])));
  }, []);
  return { voices, onVoice };
}

/** The signed-in desk's id and name, as the tiles show it talking. */
function useSelf() {
  const user = useSession()?.user;
  return useMemo(
    () => ({
      id: user?.id ?? 0,
      name: user?.display_name || `${user?.firstName ?? ''} ${user?.lastName ?? ''}`.trim(),
    }),
    [user?.id, user?.display_name, user?.firstName, user?.lastName],
  );
}
