/**
 * The floor of press-to-sound: two bare RTCPeerConnections in one page, connected over loopback, the fake
 * microphone's track added at once (disabled) and negotiated before any press, as the room does. A "press"
 * enables the track; the time to the receiving side's level crossing the threshold is the browser's own
 * pipeline (capture, Opus, RTP, jitter buffer, decode) with no server, no floor and no UI.
 *
 * Variants of the pair (`--variants`, and the pair with the app's own Opus settings) change one thing each:
 * the SDP (rewritten in Node between createOffer/createAnswer and setLocalDescription, so that the app's
 * own function is the one used), the receiver's jitterBufferTarget, how a press starts the sound
 * (`sender.replaceTrack(track)` instead of `track.enabled = true`), or the two ends in two pages (two
 * renderer processes, as two people's browsers are; times then cross pages like the room's).
 */
import type { Page } from '@playwright/test';

export interface BarePairOptions {
  /** How a press starts the sound; a release undoes it (track.enabled = false, or replaceTrack(null)). */
  press?: 'enable' | 'replaceTrack';
  /** RTCRtpReceiver.jitterBufferTarget, ms (a minimum the browser keeps, not a cap). */
  jitterBufferTarget?: number;
  /** Rewrites each description before it is set locally (and so before the other side sees it). */
  rewriteSdp?: (sdp: string) => string;
  /** The receiving end in a page of its own. */
  twoPages?: boolean;
}

/** A pair set up by setUpBarePair: the sending and the receiving page (the same one unless twoPages). */
export interface BarePair {
  name: string;
  sending: Page;
  receiving: Page;
  /** Receiving page's clock minus sending page's clock, ms (0 in one page). */
  offsetMs: number;
}

/**
 * When the receiving side first heard the press: where the sound begins in the rendered samples (the app's
 * LevelMeter.waitForOnset, the same method), when a 1 ms poll of its level saw it, and when the RTP packets'
 * audio level showed it.
 */
export interface BareHeard {
  pressedAt: number;
  soundAt: number | null;
  polledAt: number | null;
  rtpAt: number | null;
}

/** The receiver's jitter buffer so far (inbound-rtp statistics): mean delay, ms; packets received. */
export interface JitterBufferStats {
  meanDelayMs: number;
  packetsReceived: number;
}

interface SendingEnd {
  pc: RTCPeerConnection;
  press(): number;
  release(): void;
}

interface ReceivingEnd {
  pc: RTCPeerConnection;
  remote: Promise<MediaStream>;
  waitForSilence(threshold: number, timeoutMs: number): Promise<boolean>;
  waitForSound(
    threshold: number,
    timeoutMs: number,
  ): Promise<{ soundAt: number | null; polledAt: number | null; rtpAt: number | null }>;
  jitterBuffer(): Promise<JitterBufferStats>;
}

declare global {
  interface Window {
    __bareSending?: Record<string, SendingEnd>;
    __bareReceiving?: Record<string, ReceivingEnd>;
  }
}

/** Sets the local description and waits for its candidates: the description then carries them all. */
async function setLocalAndGather(page: Page, end: 'sending' | 'receiving', name: string, sdp: string) {
  return page.evaluate(
    async ([end, name, sdp]) => {
      const pc = (end === 'sending' ? window.__bareSending : window.__bareReceiving)?.[name].pc;
      if (!pc) throw new Error(`no ${end} end ${name}`);
      const complete = new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') resolve();
        pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      });
      await pc.setLocalDescription({ type: end === 'sending' ? 'offer' : 'answer', sdp });
      await complete;
      return pc.localDescription?.sdp ?? '';
    },
    [end, name, sdp] as const,
  );
}

/** Page clock minus Node's clock, ms (median of a few samples, each corrected for its round trip). */
export async function clockOffset(page: Page): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const sent = performance.timeOrigin + performance.now();
    const pageTime = await page.evaluate(() => performance.timeOrigin + performance.now());
    const received = performance.timeOrigin + performance.now();
    samples.push(pageTime - (sent + received) / 2);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

/**
 * Sets up the pair `name`: its sending end in `page` (any page of a secure origin: localhost), its receiving
 * end there too, or in `otherPage` with `twoPages`.
 */
export async function setUpBarePair(
  page: Page,
  name: string,
  options: BarePairOptions = {},
  otherPage?: Page,
): Promise<BarePair> {
  const rewrite = options.rewriteSdp ?? ((sdp: string) => sdp);
  const sending = page;
  const receiving = options.twoPages && otherPage ? otherPage : page;
  const offer = await sending.evaluate(
    async ([name, press]) => {
      const stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
      });
      const [track] = stream.getAudioTracks();
      const pc = new RTCPeerConnection();
      const sender = pc.addTrack(track, stream);
      // replaceTrack: negotiated with its track, which stays enabled and is only attached while pressed.
      if (press === 'replaceTrack') await sender.replaceTrack(null);
      else track.enabled = false;
      window.__bareSending ??= {};
      window.__bareSending[name] = {
        pc,
        press() {
          const at = performance.timeOrigin + performance.now();
          if (press === 'replaceTrack') void sender.replaceTrack(track);
          else track.enabled = true;
          return at;
        },
        release() {
          if (press === 'replaceTrack') void sender.replaceTrack(null);
          else track.enabled = false;
        },
      };
      return (await pc.createOffer()).sdp ?? '';
    },
    [name, options.press ?? 'enable'] as const,
  );
  const fullOffer = await setLocalAndGather(sending, 'sending', name, rewrite(offer));

  const answer = await receiving.evaluate(
    async ([name, offer, jitterBufferTarget]) => {
      const pc = new RTCPeerConnection();
      const remote = new Promise<MediaStream>((resolve) => {
        pc.ontrack = (event) => resolve(event.streams[0] ?? new MediaStream([event.track]));
      });
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      const receiver = pc.getReceivers()[0];
      if (jitterBufferTarget !== null) receiver.jitterBufferTarget = jitterBufferTarget;
      // Chrome pulls remote audio into Web Audio only while a media element plays it.
      const incoming = remote.then((stream) => {
        const element = new Audio();
        element.muted = true;
        element.srcObject = stream;
        void element.play().catch(() => {});
        return stream;
      });
      const context = new AudioContext();
      void context.resume();
      const analyser = context.createAnalyser();
      analyser.fftSize = 256;
      const recent = context.createAnalyser();
      recent.fftSize = 32768;
      const recentSamples = new Float32Array(recent.fftSize);
      void incoming.then((stream) => {
        const source = context.createMediaStreamSource(stream);
        source.connect(analyser);
        source.connect(recent);
      });
      const samples = new Float32Array(256);
      const level = () => {
        analyser.getFloatTimeDomainData(samples);
        let peak = 0;
        for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
        return peak;
      };
      const rtpLevel = () => {
        let peak = 0;
        for (const source of receiver.getSynchronizationSources()) peak = Math.max(peak, source.audioLevel ?? 0);
        return peak;
      };
      window.__bareReceiving ??= {};
      window.__bareReceiving[name] = {
        pc,
        remote: incoming,
        waitForSilence(threshold, timeoutMs) {
          return new Promise((resolve) => {
            const start = performance.now();
            // Silence must hold a while: late packets of the last press may still be playing out.
            let quietSince: number | null = null;
            const timer = setInterval(() => {
              quietSince = level() < threshold ? (quietSince ?? performance.now()) : null;
              if (quietSince !== null && performance.now() - quietSince >= 200) {
                clearInterval(timer);
                resolve(true);
              } else if (performance.now() - start > timeoutMs) {
                clearInterval(timer);
                resolve(false);
              }
            }, 1);
          });
        },
        waitForSound(threshold, timeoutMs) {
          return new Promise((resolve) => {
            const start = performance.now();
            let soundAt: number | null = null;
            let polledAt: number | null = null;
            let rtpAt: number | null = null;
            // As LevelMeter.waitForOnset: the smallest lag between the clock and currentTime maps a context
            // time to the moment the audio thread rendered it.
            let lag = Number.POSITIVE_INFINITY;
            const timer = setInterval(() => {
              const now = performance.timeOrigin + performance.now();
              lag = Math.min(lag, performance.now() - context.currentTime * 1000);
              if (rtpAt === null && rtpLevel() > threshold) rtpAt = now;
              if (polledAt === null && level() > threshold) {
                polledAt = now;
                recent.getFloatTimeDomainData(recentSamples);
                const end = context.currentTime;
                // As LevelMeter's lastOnset: the first loud sample after at least 20 ms of quiet.
                const quietNeeded = Math.round(context.sampleRate * 0.02);
                let quiet = 0;
                let first = -1;
                for (let i = 0; i < recentSamples.length; i += 1) {
                  if (Math.abs(recentSamples[i]) <= threshold) quiet += 1;
                  else {
                    if (quiet >= quietNeeded) first = i;
                    quiet = 0;
                  }
                }
                if (first > 0) {
                  const onset = end - (recentSamples.length - first) / context.sampleRate;
                  soundAt = performance.timeOrigin + onset * 1000 + lag;
                }
              }
              if ((polledAt !== null && rtpAt !== null) || performance.now() - start > timeoutMs) {
                clearInterval(timer);
                resolve({ soundAt, polledAt, rtpAt });
              }
            }, 1);
          });
        },
        async jitterBuffer() {
          let stats = { meanDelayMs: Number.NaN, packetsReceived: 0 };
          (await pc.getStats()).forEach((entry) => {
            if (entry.type !== 'inbound-rtp' || entry.kind !== 'audio') return;
            stats = {
              meanDelayMs: (1000 * entry.jitterBufferDelay) / (entry.jitterBufferEmittedCount || Number.NaN),
              packetsReceived: entry.packetsReceived,
            };
          });
          return stats;
        },
      };
      return (await pc.createAnswer()).sdp ?? '';
    },
    [name, fullOffer, options.jitterBufferTarget ?? null] as const,
  );
  const fullAnswer = await setLocalAndGather(receiving, 'receiving', name, rewrite(answer));
  await sending.evaluate(
    async ([name, sdp]) => {
      await window.__bareSending?.[name].pc.setRemoteDescription({ type: 'answer', sdp });
    },
    [name, fullAnswer] as const,
  );
  await receiving.evaluate(async (name) => {
    const end = window.__bareReceiving?.[name];
    if (!end) return;
    await end.remote;
    for (let i = 0; i < 200 && end.pc.connectionState !== 'connected'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, name);
  const offsetMs = receiving === sending ? 0 : (await clockOffset(receiving)) - (await clockOffset(sending));
  return { name, sending, receiving, offsetMs };
}

export function bareJitterBuffer(pair: BarePair): Promise<JitterBufferStats | undefined> {
  return pair.receiving.evaluate((name) => window.__bareReceiving?.[name].jitterBuffer(), pair.name);
}

/** One press of a pair: when it was pressed and when the other end heard it, in the sending page's clock. */
export async function barePress(pair: BarePair, soundThreshold: number, silenceThreshold: number): Promise<BareHeard> {
  const { name, sending, receiving, offsetMs } = pair;
  await receiving.evaluate(([name, threshold]) => window.__bareReceiving?.[name].waitForSilence(threshold, 3000), [
    name,
    silenceThreshold,
  ] as const);
  const heard = receiving.evaluate(
    ([name, threshold]) => window.__bareReceiving?.[name].waitForSound(threshold, 3000),
    [name, soundThreshold] as const,
  );
  // Let the watcher start, and spread the presses over the audio frames.
  await new Promise((resolve) => setTimeout(resolve, 80 + Math.random() * 40));
  const pressedAt = await sending.evaluate((name) => window.__bareSending?.[name].press() ?? 0, name);
  const { soundAt = null, polledAt = null, rtpAt = null } = (await heard) ?? {};
  await sending.evaluate((name) => window.__bareSending?.[name].release(), name);
  const inSendingClock = (at: number | null) => (at === null ? null : at - offsetMs);
  return {
    pressedAt,
    soundAt: inSendingClock(soundAt),
    polledAt: inSendingClock(polledAt),
    rtpAt: inSendingClock(rtpAt),
  };
}
