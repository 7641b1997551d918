/**
 * The crowd of bench:media: N listeners of one channel, each a socket of its own (in this process, as a page's
 * socket is) and a receive-only RTCPeerConnection in pages of one headless Chromium (LISTENERS_PER_PAGE per
 * page, so that a hundred of them fit a 2-core machine), connected the way the app's transports connect:
 * - `watch`: every page through the media server: the channel's stream from its mountpoint (media_watch,
 *   media_answer), the floor holder's packets forwarded as they came;
 * - `bridge`: an older page (or a spec client) through the media server: a participant of the channel's
 *   mixer, which decodes, mixes and encodes for it (media_offer without a leg);
 * - `mesh`: a listening page of the mesh: a connection to each talking peer, offered over the relay.
 * Each connection's received level is measured in its page; `heardCount` counts those that heard the tone.
 */
import type { Browser, Page } from '@playwright/test';
import { io, type Socket } from 'socket.io-client';
import { type LossyRelay, relayOffer, withoutCandidates } from './lossy-relay.ts';

export type ListenerKind = 'watch' | 'bridge' | 'mesh';

export const LISTENERS_PER_PAGE = 10;

declare global {
  interface Window {
    __crowd?: {
      audio: AudioContext;
      ends: Map<string, { pc: RTCPeerConnection; analyser: AnalyserNode | null; peak: number }>;
      sampler?: ReturnType<typeof setInterval>;
    };
  }
}

/** Installs the page's side: connections, and a sampler of each one's peak level while asked. */
function installCrowd(): void {
  window.__crowd = { audio: new AudioContext({ sampleRate: 48_000 }), ends: new Map() };
}

async function gathered(page: Page, name: string, sdp: string, type: 'offer' | 'answer'): Promise<string> {
  return page.evaluate(
    async ([name, sdp, type]) => {
      const crowd = window.__crowd;
      const end = crowd?.ends.get(name);
      if (!crowd || !end) throw new Error(`no listener ${name}`);
      const { pc } = end;
      const complete = new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') resolve();
        pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      });
      if (type === 'answer') {
        await pc.setRemoteDescription({ type: 'offer', sdp });
        await pc.setLocalDescription(await pc.createAnswer());
      } else await pc.setLocalDescription(await pc.createOffer());
      await complete;
      return pc.localDescription?.sdp ?? '';
    },
    [name, sdp, type] as const,
  );
}

/** A receive-only connection named `name` in the page, measured once its audio comes. */
function newEnd(page: Page, name: string): Promise<void> {
  return page.evaluate((name) => {
    const crowd = window.__crowd;
    if (!crowd) throw new Error('no crowd');
    const pc = new RTCPeerConnection();
    const end = { pc, analyser: null as AnalyserNode | null, peak: 0 };
    crowd.ends.set(name, end);
    pc.addTransceiver('audio', { direction: 'recvonly' });
    pc.ontrack = (event) => {
      const stream = event.streams[0] ?? new MediaStream([event.track]);
      // Chromium feeds Web Audio from a remote stream only while a media element plays it.
      const element = new Audio();
      element.muted = true;
      element.srcObject = stream;
      void element.play().catch(() => {});
      const analyser = crowd.audio.createAnalyser();
      analyser.fftSize = 1024;
      crowd.audio.createMediaStreamSource(stream).connect(analyser);
      end.analyser = analyser;
    };
  }, name);
}

/**
 * `lossPercent`: each `watch` listener's connection goes through a relay that drops that share of the media
 * server's RTP to it (lossy-relay.ts), a mobile network's lossy downlink.
 */
export function loadListeners(
  browser: Browser,
  baseURL: string,
  token: string,
  options: { lossPercent?: number } = {},
) {
  const pages: Page[] = [];
  const sockets: Socket[] = [];
  const ends: Array<{ page: Page; name: string }> = [];
  const relays: LossyRelay[] = [];

  async function pageFor(index: number): Promise<Page> {
    const at = Math.floor(index / LISTENERS_PER_PAGE);
    if (!pages[at]) {
      const page = await (await browser.newContext({ baseURL })).newPage();
      await page.goto('/healthz');
      await page.evaluate(installCrowd);
      pages[at] = page;
    }
    return pages[at];
  }

  async function connectOne(kind: ListenerKind, room: string): Promise<void> {
    const index = ends.length;
    const page = await pageFor(index);
    const name = `l${index}`;
    const socket = io(baseURL, { transports: ['websocket'], query: { token }, reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const peers = new Promise<Array<{ id: string; mode: string; room: string }>>((resolve) =>
      socket.once('all_users', resolve),
    );
    socket.emit('join_room', { room, mode: kind === 'bridge' ? 'talk' : 'listen' });
    ends.push({ page, name });
    if (kind === 'mesh') {
      // The newcomer offers to each talking peer; their answers and candidates come over the relay.
      for (const peer of (await peers).filter((one) => one.room === room && one.mode === 'talk')) {
        const peerName = `${name}-${peer.id}`;
        await newEnd(page, peerName);
        ends.push({ page, name: peerName });
        const answered = new Promise<string>((resolve) => {
          const onAnswer = (payload: { sdp: { sdp: string }; answerSendID: string }) => {
            if (payload.answerSendID !== peer.id) return;
            socket.off('getAnswer', onAnswer);
            resolve(payload.sdp.sdp);
          };
          socket.on('getAnswer', onAnswer);
        });
        socket.on('getCandidate', (payload: { candidate: RTCIceCandidateInit; candidateSendID: string }) => {
          if (payload.candidateSendID !== peer.id) return;
          void page
            .evaluate(([end, candidate]) => window.__crowd?.ends.get(end)?.pc.addIceCandidate(candidate), [
              peerName,
              payload.candidate,
            ] as const)
            .catch(() => {});
        });
        const sdp = await gathered(page, peerName, '', 'offer');
        socket.emit('offer', { sdp: { type: 'offer', sdp }, offerReceiveID: peer.id, offerSendName: 'Crowd', room });
        const answer = await answered;
        await page.evaluate(
          ([end, sdp]) => window.__crowd?.ends.get(end)?.pc.setRemoteDescription({ type: 'answer', sdp }),
          [peerName, answer] as const,
        );
      }
      ends.splice(ends.indexOf(ends.find((end) => end.name === name) as { page: Page; name: string }), 1);
      return;
    }
    await peers;
    await newEnd(page, name);
    if (kind === 'watch') {
      const offered = await socket.timeout(20_000).emitWithAck('media_watch', { room });
      if (!offered.success) throw new Error(`media_watch: ${offered.result}`);
      const relay = options.lossPercent ? await relayOffer(offered.sdp, options.lossPercent) : undefined;
      if (relay) relays.push(relay);
      const sdp = await gathered(page, name, relay?.offer ?? offered.sdp, 'answer');
      const done = await socket
        .timeout(20_000)
        .emitWithAck('media_answer', { room, sdp: relay ? withoutCandidates(sdp) : sdp });
      if (!done.success) throw new Error(`media_answer: ${done.result}`);
    } else {
      const sdp = await gathered(page, name, '', 'offer');
      const answer = await socket.timeout(20_000).emitWithAck('media_offer', { room, sdp });
      if (!answer.success) throw new Error(`media_offer: ${answer.result}`);
      await page.evaluate(
        ([end, sdp]) => window.__crowd?.ends.get(end)?.pc.setRemoteDescription({ type: 'answer', sdp }),
        [name, answer.sdp] as const,
      );
    }
  }

  return {
    get size() {
      return sockets.length;
    },
    /** Adds listeners until there are `count`, each connected before the next comes. */
    async growTo(count: number, kind: ListenerKind, room: string): Promise<void> {
      while (sockets.length < count) await connectOne(kind, room);
    },
    /** Listeners whose connections are all up. */
    async connected(): Promise<number> {
      const states = new Map<string, boolean>();
      for (const page of pages) {
        const ends = await page.evaluate(() =>
          [...(window.__crowd?.ends ?? new Map())].map(([name, end]) => [name, end.pc.connectionState === 'connected']),
        );
        for (const [name, up] of ends as Array<[string, boolean]>) {
          const listener = name.split('-')[0];
          states.set(listener, (states.get(listener) ?? true) && up);
        }
      }
      return [...states.values()].filter(Boolean).length;
    },
    /** Starts measuring each connection's peak level (from now on). */
    async listen(): Promise<void> {
      for (const page of pages)
        await page.evaluate(() => {
          const crowd = window.__crowd;
          if (!crowd) return;
          const samples = new Float32Array(1024);
          for (const end of crowd.ends.values()) end.peak = 0;
          clearInterval(crowd.sampler);
          crowd.sampler = setInterval(() => {
            for (const end of crowd.ends.values()) {
              if (!end.analyser) continue;
              end.analyser.getFloatTimeDomainData(samples);
              for (const sample of samples) end.peak = Math.max(end.peak, Math.abs(sample));
            }
          }, 40);
        });
    },
    /** Stops measuring: how many listeners heard a level above `threshold` (on any of their connections). */
    async heardCount(threshold: number): Promise<{ heard: number; of: number }> {
      const heard = new Map<string, boolean>();
      for (const page of pages) {
        const peaks = await page.evaluate(() => {
          const crowd = window.__crowd;
          if (!crowd) return [];
          clearInterval(crowd.sampler);
          return [...crowd.ends].map(([name, end]) => [name, end.peak]);
        });
        for (const [name, peak] of peaks as Array<[string, number]>) {
          const listener = name.split('-')[0];
          heard.set(listener, (heard.get(listener) ?? false) || peak > threshold);
        }
      }
      return { heard: [...heard.values()].filter(Boolean).length, of: heard.size };
    },
    /**
     * When the first listener's level first crosses `threshold` (epoch ms, its page's clock; a 1 ms poll), or
     * null after `timeoutMs`.
     */
    firstHeard(threshold: number, timeoutMs: number): Promise<number | null> {
      const first = ends[0];
      if (!first) return Promise.resolve(null);
      return first.page.evaluate(
        ([name, threshold, timeoutMs]) =>
          new Promise<number | null>((resolve) => {
            const analyser = window.__crowd?.ends.get(name)?.analyser;
            if (!analyser) return resolve(null);
            const samples = new Float32Array(analyser.fftSize);
            const start = performance.now();
            const timer = setInterval(() => {
              analyser.getFloatTimeDomainData(samples);
              let peak = 0;
              for (const sample of samples.subarray(samples.length - 256)) peak = Math.max(peak, Math.abs(sample));
              if (peak > threshold) {
                clearInterval(timer);
                resolve(performance.timeOrigin + performance.now());
              } else if (performance.now() - start > timeoutMs) {
                clearInterval(timer);
                resolve(null);
              }
            }, 1);
          }),
        [first.name, threshold, timeoutMs] as const,
      );
    },
    /** The share of the media server's packets the lossy relays dropped so far (%). */
    droppedPercent(): number {
      const totals = relays.map((relay) => relay.dropped());
      const of = totals.reduce((sum, total) => sum + total.of, 0);
      return of > 0 ? (100 * totals.reduce((sum, total) => sum + total.dropped, 0)) / of : 0;
    },
    async close(): Promise<void> {
      for (const relay of relays.splice(0)) relay.close();
      for (const socket of sockets.splice(0)) socket.disconnect();
      for (const page of pages.splice(0)) await page.context().close();
      ends.splice(0);
    },
  };
}
