/**
 * The app's side of the press-to-sound bench (run.ts): a talker and a listener in one channel room of a server,
 * each a headless Chromium page; a press times the sound's onset at the listener, the track enabled, the RTP
 * level and the talking indicator, in ms from the talker's pointerdown.
 */
import type { Browser } from '@playwright/test';
import { type Account, createAdmin, seedFor, type TalkgroupServer, useSession } from '../../e2e/fixtures.ts';
import { clockOffset } from './bare.ts';

/** The tone peaks near 0.33; silence frames decode to 0. */
export const SOUND_THRESHOLD = 0.05;
export const SILENCE_THRESHOLD = 0.005;

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await pause(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** What one room's presses gave, in ms from the press. */
export interface RoomFigures {
  /** The sound's onset at the listener, to the sample. */
  sound: number[];
  /** When a 2 ms poll of the listener's level saw it. */
  polled: number[];
  enabled: number[];
  rtp: number[];
  /** The first audio packet of the press at the listener (any of its connections; its own receive time). */
  packet: number[];
  /** The listener's room shows the talker talking (its page draws it next). */
  talking: number[];
  /** The talker's tile in the listener's page says so. */
  updated: number[];
  /** The next frame: drawn. */
  indicator: number[];
  missed: number;
  jitterBufferMs: number[];
}

const admins = new Map<TalkgroupServer, Promise<Account>>();
/** The server's administrator (the first account), the talker of each of its rooms. */
function adminOf(server: TalkgroupServer): Promise<Account> {
  if (!admins.has(server)) admins.set(server, createAdmin(server));
  return admins.get(server) as Promise<Account>;
}

/** A talker and a listener in one channel room of one server. */
export async function openRoomPair(
  browser: Browser,
  server: TalkgroupServer,
  channelOptions: { recording?: boolean; talkerScript?: () => void } = {},
) {
  const admin = await adminOf(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel(`PTT bench ${Math.random().toString(36).slice(2, 8)}`);
  if (channelOptions.recording === false) {
    const answer = await server.call(
      '/user/api/updateChannel',
      { channelId: channel.id, channelName: channel.name, recording: false },
      admin.token,
    );
    if (answer.status !== 200) throw new Error(`updateChannel failed: ${JSON.stringify(answer.body)}`);
  }
  const listenerAccount = await seed.member({ firstName: 'Lou', lastName: 'Listener' });
  await seed.addToChannel(channel.id, [listenerAccount.id]);

  const open = async (account: Account) => {
    const context = await browser.newContext({ baseURL: server.baseURL, viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => {
      localStorage.setItem('i18nextLng', 'en');
      localStorage.setItem('talkgroup.voiceProcessing', 'off');
      // The room's diagnostics (window.__talkgroupRoom), off unless a page asks before it loads.
      window.__talkgroupDiagnostics = true;
      // The press: the first event the button gets, before the floor is asked for.
      window.addEventListener(
        'pointerdown',
        () => {
          (window as unknown as { __pressedAt: number }).__pressedAt = performance.timeOrigin + performance.now();
        },
        true,
      );
      // Every connection the page makes, for what it sends (bench:media reads the talker's uplink).
      const Native = window.RTCPeerConnection;
      const made: RTCPeerConnection[] = [];
      (window as unknown as { __peerConnections: RTCPeerConnection[] }).__peerConnections = made;
      window.RTCPeerConnection = class extends Native {
        constructor(configuration?: RTCConfiguration) {
          super(configuration);
          made.push(this);
        }
      };
    });
    // What a bench watches in the talker's page besides (bench:mcptt: the floor's offers).
    if (account === admin && channelOptions.talkerScript) await context.addInitScript(channelOptions.talkerScript);
    const page = await context.newPage();
    await useSession(page, account);
    await page.goto(`/groupCallView/${encodeURIComponent(channel.rtcSession)}`);
    return page;
  };
  const talker = await open(admin);
  const listener = await open(listenerAccount);
  const button = talker.getByRole('button', { name: 'Push to talk' });
  await waitFor('the microphone', () => button.isEnabled());
  await button.hover();

  const state = { talkerId: '', talkerOffset: 0, listenerOffset: 0 };
  /** (Re)joins the listener: a new peer connection with the talker, and fresh clock offsets. */
  const rejoin = async (reload: boolean) => {
    if (reload) await listener.reload();
    state.talkerId = await waitFor('the peer connection', () =>
      listener.evaluate(
        (userId) =>
          window.__talkgroupRoom?.peers().find((p) => p.userId === userId && p.connection === 'connected')?.id,
        admin.id,
      ),
    );
    // The first second of a connection is not what a press meets.
    await pause(1000);
    state.talkerOffset = await clockOffset(talker);
    state.listenerOffset = await clockOffset(listener);
  };
  await rejoin(false);

  const figures: RoomFigures = {
    sound: [],
    polled: [],
    enabled: [],
    rtp: [],
    packet: [],
    talking: [],
    updated: [],
    indicator: [],
    missed: 0,
    jitterBufferMs: [],
  };

  async function press(): Promise<string> {
    const { talkerId, talkerOffset, listenerOffset } = state;
    // Silence first, so the press is the only onset.
    await listener.evaluate(([id, threshold]) => window.__talkgroupRoom?.waitForLevel(id, threshold, 3000, false), [
      talkerId,
      SILENCE_THRESHOLD,
    ] as const);
    const heard = listener.evaluate(
      ([id, threshold]) => window.__talkgroupRoom?.waitForLevel(id, threshold, 3000, true),
      [talkerId, SOUND_THRESHOLD] as const,
    );
    // To the sample, whatever the listener's main thread was doing (absent from builds before it came).
    const began = listener.evaluate(
      ([id, threshold]) => window.__talkgroupRoom?.waitForOnset?.(id, threshold, 3000) ?? null,
      [talkerId, SOUND_THRESHOLD] as const,
    );
    // The indicator: when the talker's tile says it talks in the page (one peer here), and the first animation
    // frame after, when it is drawn.
    const seen = listener.evaluate(
      () =>
        new Promise<[number, number] | null>((resolve) => {
          const timer = setTimeout(() => {
            observer.disconnect();
            resolve(null);
          }, 3000);
          const observer = new MutationObserver(() => {
            if (!document.querySelector('[data-talking="true"]')) return;
            const updatedAt = performance.timeOrigin + performance.now();
            observer.disconnect();
            clearTimeout(timer);
            requestAnimationFrame(() => resolve([updatedAt, performance.timeOrigin + performance.now()]));
          });
          observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-talking'] });
        }),
    );
    const received = listener.evaluate(
      ([id, threshold]) =>
        new Promise<number | null>((resolve) => {
          const start = performance.now();
          const timer = setInterval(() => {
            const level = window.__talkgroupRoom?.rtpLevel(id) ?? 0;
            if (level > threshold || performance.now() - start > 3000) {
              clearInterval(timer);
              resolve(level > threshold ? performance.timeOrigin + performance.now() : null);
            }
          }, 2);
        }),
      [talkerId, SOUND_THRESHOLD] as const,
    );
    // The first packet of the press, as the listener's connections received it (a 2 ms poll of their
    // statistics; lastPacketReceivedTimestamp is when it arrived).
    const packet = listener.evaluate(
      () =>
        new Promise<number | null>((resolve) => {
          const pcs = () =>
            ((window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? []).filter(
              (pc) => pc.connectionState === 'connected',
            );
          const received = async () => {
            const seen: Array<{ packets: number; at: number }> = [];
            for (const pc of pcs())
              for (const report of (await pc.getStats()).values())
                if (report.type === 'inbound-rtp' && report.kind === 'audio')
                  seen.push({ packets: report.packetsReceived ?? 0, at: report.lastPacketReceivedTimestamp ?? 0 });
            return seen;
          };
          const start = performance.now();
          void received().then((before) => {
            const tick = async () => {
              const now = await received();
              // Through the media server nothing comes between transmissions, so the first packet is the press's;
              // on the mesh the talker's DTX packets come anyway, and bench:media shows no figure for it.
              const moved = now.find((entry, index) => before[index] && entry.packets > before[index].packets);
              if (moved) return resolve(moved.at);
              if (performance.now() - start > 3000) return resolve(null);
              setTimeout(() => void tick(), 2);
            };
            void tick();
          });
        }),
    );
    // Let the watchers start, and spread the presses over the audio frames. The button again under the mouse
    // (a room that filled with listeners may have moved it; forced: its talking animation never keeps still).
    await button.hover({ force: true });
    await pause(80 + Math.random() * 40);
    await talker.mouse.down();
    const [heardAt, beganAt, seenAt, receivedAt, packetAt] = await Promise.all([heard, began, seen, received, packet]);
    const [pressedAt, micOnAt] = await talker.evaluate(() => [
      (window as unknown as { __pressedAt?: number }).__pressedAt ?? 0,
      window.__talkgroupRoom?.lastMicOnAt ?? 0,
    ]);
    const talkingAt = await listener.evaluate((id) => window.__talkgroupRoom?.talkingSince?.(id) ?? 0, talkerId);
    await talker.mouse.up();
    const fromPress = (at: number) => at - listenerOffset - (pressedAt - talkerOffset);
    if (receivedAt != null && pressedAt) figures.rtp.push(fromPress(receivedAt));
    if (packetAt != null && pressedAt) figures.packet.push(fromPress(packetAt));
    if (seenAt != null && pressedAt) {
      figures.updated.push(fromPress(seenAt[0]));
      figures.indicator.push(fromPress(seenAt[1]));
    }
    if (talkingAt && pressedAt) figures.talking.push(fromPress(talkingAt));
    if (heardAt == null || !pressedAt) {
      figures.missed += 1;
      return 'x';
    }
    figures.polled.push(fromPress(heardAt));
    if (beganAt != null) figures.sound.push(fromPress(beganAt));
    if (micOnAt) figures.enabled.push(micOnAt - pressedAt);
    return '.';
  }

  /** The listener's jitter buffer over the round, then a new connection for the next one. */
  async function nextRound(last: boolean): Promise<void> {
    const inbound = await listener.evaluate((id) => window.__talkgroupRoom?.inboundAudio(id), state.talkerId);
    if (inbound && Number.isFinite(inbound.jitterBufferMs)) figures.jitterBufferMs.push(inbound.jitterBufferMs);
    if (!last) await rejoin(true);
  }

  /** Bytes of audio the talker's page has sent so far, over all its connections (its uplink). */
  const sentBytes = () =>
    talker.evaluate(async () => {
      let sent = 0;
      for (const pc of (window as unknown as { __peerConnections?: RTCPeerConnection[] }).__peerConnections ?? []) {
        if (pc.connectionState === 'closed') continue;
        for (const report of (await pc.getStats()).values())
          if (report.type === 'outbound-rtp' && report.kind === 'audio') sent += report.bytesSent ?? 0;
      }
      return sent;
    });

  /** The talker holds the button (the mouse over it first: a room full of listeners may have moved it). */
  async function hold(): Promise<void> {
    await button.hover({ force: true });
    await talker.mouse.down();
  }

  return { press, hold, nextRound, figures, talker, listener, channel, admin, sentBytes };
}
