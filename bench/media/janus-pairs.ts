/**
 * What Janus's own settings do to press-to-sound (`npm run bench:media -- --janus-pairs`): a talking and a
 * listening RTCPeerConnection in one page, through an AudioBridge room of a Janus of its own, driven straight
 * through Janus's API (no app, no floor), beside a bare pair of connections in the same page. A press
 * enables the talker's tone track, after unmuting it in Janus (as a grant does); the sound is when the
 * listener's level first crosses the threshold (a 1 ms poll). Variants, one change each:
 * - Janus's defaults: 6 packets buffered before mixing, the browser's own answer (no DTX asked);
 * - 2 packets (the app's PREBUFFER_PACKETS);
 * - 2 packets and DTX asked of the talker (the app's answer, sdp.ts);
 * - the same, the listener on the channel's mountpoint (the mix forwarded to the Streaming plugin);
 * - the app's settings, but unmuted after the track is enabled (as before the grant waited for it).
 */
import type { Browser, Page } from '@playwright/test';
import { JanusConnection, JanusSession } from '../../packages/server/src/janus/connection.ts';
import { startJanus } from '../../packages/server/src/ops/dev-media.ts';
import { tuneAnswer } from '../../packages/server/src/realtime/media/janus/sdp.ts';
import { freePort } from '../server-process.ts';

interface Variant {
  name: string;
  prebuffer: number;
  dtx: boolean;
  listener: 'bridge' | 'mountpoint';
  unmuteAfterEnable?: boolean;
  /** The talker publishes in a VideoRoom, forwarded to the mountpoint as it arrived (the app's path). */
  forward?: 'kept' | 'at the press';
  /** The mountpoint tells its listeners the stream carries in-band FEC (fmtp useinbandfec=1). */
  fecFmtp?: boolean;
}

const VARIANTS: Variant[] = [
  { name: "Janus's defaults (prebuffer 6, no DTX)", prebuffer: 6, dtx: false, listener: 'bridge' },
  { name: 'prebuffer 2', prebuffer: 2, dtx: false, listener: 'bridge' },
  { name: 'prebuffer 2, DTX (the app)', prebuffer: 2, dtx: true, listener: 'bridge' },
  { name: 'the app, listener on the mountpoint', prebuffer: 2, dtx: true, listener: 'mountpoint' },
  { name: 'the app, unmuted after the press', prebuffer: 2, dtx: true, listener: 'bridge', unmuteAfterEnable: true },
  // Forwarded, not mixed (issue 37): where the time goes between the press and the sound.
  { name: 'forwarded, forward kept', prebuffer: 2, dtx: true, listener: 'mountpoint', forward: 'kept' },
  { name: 'forwarded at the press', prebuffer: 2, dtx: true, listener: 'mountpoint', forward: 'at the press' },
  {
    name: 'forwarded at the press, FEC fmtp (the app)',
    prebuffer: 2,
    dtx: true,
    listener: 'mountpoint',
    forward: 'at the press',
    fecFmtp: true,
  },
];

const silent = { info() {}, warn() {}, error() {}, debug() {} } as never;

/** The page's side: ends with a tone (disabled) or receive-only, levels polled every millisecond. */
function installEnds(): void {
  const audio = new AudioContext({ sampleRate: 48_000 });
  const ends = new Map<string, { pc: RTCPeerConnection; track?: MediaStreamTrack; analyser?: AnalyserNode }>();
  const level = (analyser: AnalyserNode) => {
    const samples = new Float32Array(256);
    analyser.getFloatTimeDomainData(samples);
    let peak = 0;
    for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
    return peak;
  };
  Object.assign(window, {
    __pairs: {
      async end(name: string, tone: boolean, offer?: string) {
        await audio.resume();
        const pc = new RTCPeerConnection();
        const end: { pc: RTCPeerConnection; track?: MediaStreamTrack; analyser?: AnalyserNode } = { pc };
        ends.set(name, end);
        if (tone) {
          const oscillator = audio.createOscillator();
          oscillator.frequency.value = 1000;
          const gain = audio.createGain();
          gain.gain.value = 0.33;
          const out = audio.createMediaStreamDestination();
          oscillator.connect(gain).connect(out);
          oscillator.start();
          end.track = out.stream.getAudioTracks()[0];
          end.track.enabled = false;
          pc.addTrack(end.track, out.stream);
        } else if (!offer) pc.addTransceiver('audio', { direction: 'recvonly' });
        pc.ontrack = (event) => {
          const stream = event.streams[0] ?? new MediaStream([event.track]);
          const element = new Audio();
          element.muted = true;
          element.srcObject = stream;
          void element.play().catch(() => {});
          if ('jitterBufferTarget' in event.receiver) event.receiver.jitterBufferTarget = 10;
          end.analyser = audio.createAnalyser();
          end.analyser.fftSize = 256;
          audio.createMediaStreamSource(stream).connect(end.analyser);
        };
        if (offer) {
          await pc.setRemoteDescription({ type: 'offer', sdp: offer });
          await pc.setLocalDescription(await pc.createAnswer());
        } else await pc.setLocalDescription(await pc.createOffer());
        await new Promise<void>((resolve) => {
          if (pc.iceGatheringState === 'complete') resolve();
          pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
        });
        return pc.localDescription?.sdp ?? '';
      },
      async answer(name: string, sdp: string) {
        await ends.get(name)?.pc.setRemoteDescription({ type: 'answer', sdp });
      },
      enable(name: string, on: boolean) {
        const track = ends.get(name)?.track;
        if (track) track.enabled = on;
        return performance.timeOrigin + performance.now();
      },
      heard(name: string, threshold: number, timeoutMs: number) {
        return new Promise<number | null>((resolve) => {
          const start = performance.now();
          const timer = setInterval(() => {
            const analyser = ends.get(name)?.analyser;
            if (analyser && level(analyser) > threshold) {
              clearInterval(timer);
              resolve(performance.timeOrigin + performance.now());
            } else if (performance.now() - start > timeoutMs) {
              clearInterval(timer);
              resolve(null);
            }
          }, 1);
        });
      },
    },
  });
}

type Pairs = {
  end(name: string, tone: boolean, offer?: string): Promise<string>;
  answer(name: string, sdp: string): Promise<void>;
  enable(name: string, on: boolean): number;
  heard(name: string, threshold: number, timeoutMs: number): Promise<number | null>;
};
const pairs = (page: Page) => ({
  end: (name: string, tone: boolean, offer?: string) =>
    page.evaluate(([n, t, o]) => (window as unknown as { __pairs: Pairs }).__pairs.end(n, t, o), [
      name,
      tone,
      offer,
    ] as const),
  answer: (name: string, sdp: string) =>
    page.evaluate(([n, s]) => (window as unknown as { __pairs: Pairs }).__pairs.answer(n, s), [name, sdp] as const),
  enable: (name: string, on: boolean) =>
    page.evaluate(([n, o]) => (window as unknown as { __pairs: Pairs }).__pairs.enable(n, o), [name, on] as const),
  heard: (name: string) =>
    page.evaluate((n) => (window as unknown as { __pairs: Pairs }).__pairs.heard(n, 0.05, 3000), name),
});

export async function measureJanusPairs(browser: Browser, origin: string, presses: number) {
  const wsPort = await freePort();
  const base = 30_000 + Math.floor(Math.random() * 20) * 1000 + 500;
  const janus = await startJanus({ wsPort, rtpPorts: [base, base + 199] });
  let connection!: JanusConnection;
  await new Promise<void>((resolve) => {
    connection = new JanusConnection({
      url: janus.url,
      apiSecret: janus.secret,
      log: silent,
      onUp: resolve,
      onDown: () => {},
    });
    connection.start();
  });
  const page = await (await browser.newContext({ baseURL: origin })).newPage();
  await page.goto('/healthz');
  await page.evaluate(installEnds);
  const ends = pairs(page);
  const results: Record<string, number[]> = { 'bare pair': [] };
  try {
    const session = await JanusSession.create(connection);
    const control = await session.attach('janus.plugin.audiobridge');
    const streaming = await session.attach('janus.plugin.streaming');
    const videoroom = await session.attach('janus.plugin.videoroom');
    /** What a press and a release ask of Janus for each variant (the AudioBridge: unmute; forwarded: a forward). */
    const onAir: Record<string, (on: boolean) => Promise<unknown>> = {};
    const mountpoint = async (room: number, fec = false) => {
      const created = await streaming.message({
        request: 'create',
        type: 'rtp',
        id: room,
        admin_key: janus.secret,
        is_private: true,
        media: [
          {
            type: 'audio',
            mid: 'a',
            port: 0,
            iface: '127.0.0.1',
            pt: 100,
            codec: 'opus',
            rtpmap: 'opus/48000/2',
            ...(fec ? { fmtp: 'useinbandfec=1' } : {}),
          },
        ],
      });
      return (created.data.stream as { ports: Array<{ port: number }> }).ports[0].port;
    };
    for (const [index, variant] of VARIANTS.entries()) {
      const room = index + 1;
      results[variant.name] = [];
      let port = 0;
      if (variant.forward) {
        await videoroom.message({
          request: 'create',
          room,
          admin_key: janus.secret,
          is_private: true,
          audiocodec: 'opus',
          opus_fec: true,
          opus_dtx: true,
          audiolevel_ext: false,
        });
        const publisher = await session.attach('janus.plugin.videoroom');
        const offer = await ends.end(`t${room}`, true);
        const publisherId = 1000 + room;
        const answer = await publisher.message(
          { request: 'joinandconfigure', ptype: 'publisher', room, id: publisherId, audiocodec: 'opus' },
          { type: 'offer', sdp: offer },
        );
        await ends.answer(`t${room}`, tuneAnswer(answer.jsep?.sdp ?? ''));
        port = await mountpoint(room, variant.fecFmtp);
        const mid = /a=mid:(\S+)/.exec(offer)?.[1] ?? '0';
        let streamId: number | undefined;
        const forward = async () => {
          const forwarded = await videoroom.message({
            request: 'rtp_forward',
            room,
            publisher_id: publisherId,
            admin_key: janus.secret,
            host: '127.0.0.1',
            streams: [{ mid, port, pt: 100, ssrc: 0x10000 + Math.floor(Math.random() * 0x6fff0000) }],
          });
          streamId = (forwarded.data.forwarders as Array<{ stream_id: number }>)[0]?.stream_id;
        };
        if (variant.forward === 'kept') {
          await forward();
          onAir[variant.name] = async () => {};
        } else
          onAir[variant.name] = (on) =>
            on
              ? forward()
              : videoroom.message({
                  request: 'stop_rtp_forward',
                  room,
                  publisher_id: publisherId,
                  stream_id: streamId,
                  admin_key: janus.secret,
                });
      } else {
        await control.message({
          request: 'create',
          room,
          admin_key: janus.secret,
          is_private: true,
          sampling_rate: 48_000,
          audiolevel_ext: false,
          default_prebuffering: variant.prebuffer,
        });
        const talker = await session.attach('janus.plugin.audiobridge');
        onAir[variant.name] = (on) => talker.message({ request: 'configure', muted: !on });
        await talker.message({ request: 'join', room, muted: true });
        const offer = await ends.end(`t${room}`, true);
        const answer = await talker.message({ request: 'configure', muted: true }, { type: 'offer', sdp: offer });
        await ends.answer(`t${room}`, variant.dtx ? tuneAnswer(answer.jsep?.sdp ?? '') : (answer.jsep?.sdp ?? ''));
        if (variant.listener === 'mountpoint') {
          port = await mountpoint(room);
          await control.message({
            request: 'rtp_forward',
            room,
            admin_key: janus.secret,
            host: '127.0.0.1',
            port,
            ptype: 100,
          });
        }
      }
      if (variant.listener === 'bridge') {
        const listener = await session.attach('janus.plugin.audiobridge');
        await listener.message({ request: 'join', room, muted: true });
        const listenerOffer = await ends.end(`l${room}`, false);
        const listenerAnswer = await listener.message(
          { request: 'configure', muted: true },
          { type: 'offer', sdp: listenerOffer },
        );
        await ends.answer(`l${room}`, listenerAnswer.jsep?.sdp ?? '');
      } else {
        const watcher = await session.attach('janus.plugin.streaming');
        const offered = await watcher.message({ request: 'watch', id: room });
        const watcherAnswer = await ends.end(`l${room}`, false, offered.jsep?.sdp);
        await watcher.message({ request: 'start' }, { type: 'answer', sdp: watcherAnswer });
      }
    }
    // The bare pair: two connections in the page, one to the other.
    const bareOffer = await ends.end('bare-t', true);
    const bareAnswer = await ends.end('bare-l', false, bareOffer);
    await ends.answer('bare-t', bareAnswer);
    await new Promise((resolve) => setTimeout(resolve, 2000));

    for (let i = 0; i < presses; i += 1) {
      const order = [...VARIANTS.map((variant, index) => ({ variant, room: index + 1 })), null].sort(
        () => Math.random() - 0.5,
      );
      for (const subject of order) {
        const [talker, listener] = subject ? [`t${subject.room}`, `l${subject.room}`] : ['bare-t', 'bare-l'];
        const heard = ends.heard(listener);
        await new Promise((resolve) => setTimeout(resolve, 80 + Math.random() * 40));
        const air = subject ? onAir[subject.variant.name] : undefined;
        let pressedAt: number;
        if (air && !subject?.variant.unmuteAfterEnable) {
          pressedAt = Date.now();
          await air(true);
          await ends.enable(talker, true);
        } else {
          pressedAt = await ends.enable(talker, true);
          await air?.(true);
        }
        const heardAt = await heard;
        await ends.enable(talker, false);
        await air?.(false);
        if (heardAt !== null) results[subject ? subject.variant.name : 'bare pair'].push(heardAt - pressedAt);
        await new Promise((resolve) => setTimeout(resolve, 400 + Math.random() * 200));
      }
      process.stdout.write('.');
    }
  } finally {
    await page.context().close();
    await connection.stop();
    await janus.stop();
  }
  return results;
}
