/**
 * Real WebRTC ends for the media server's tests: RTCPeerConnections in one headless Chromium page (the system
 * package, as the browser tests use), driven from the test while the test's own sockets carry the offers
 * (`media_offer`), as a page of the app does. Each talking end sends a tone of its own frequency made in the
 * page (so that a listener tells who it hears from one spectrum), and each end reads the level of given
 * tones in what it receives. Listeners compare tones read at the same moment, never a level against a fixed
 * delay.
 */
import { type Browser, chromium, type Page } from '@playwright/test';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface EndOptions {
  /** Hz of the tone this end sends (its microphone); none: it only listens (recvonly). */
  tone?: number;
  /** The tone's track starts enabled (a client that ignores the floor); default: disabled until `talk`. */
  enabled?: boolean;
  /** It only sends (a page's microphone connection; it hears on another). */
  sendOnly?: boolean;
}

declare global {
  interface Window {
    __ends?: Record<string, MediaEnd>;
    __audio?: AudioContext;
    __hear?: (end: MediaEnd, stream: MediaStream) => void;
  }
}

interface MediaEnd {
  pc: RTCPeerConnection;
  track: MediaStreamTrack | null;
  analyser: AnalyserNode | null;
}

export interface MediaPage {
  page: Page;
  /** A new end (its connection, its tone): returns its offer with every candidate in it. */
  offer(name: string, options?: EndOptions): Promise<string>;
  /** A new receive-only end answering the media server's offer (a listener): returns its answer. */
  answerOffer(name: string, sdp: string): Promise<string>;
  /** Janus's answer to that offer. */
  answer(name: string, sdp: string): Promise<void>;
  /** Starts (or stops) sending the end's tone: its track enabled, as a press does in the app. */
  talk(name: string, on: boolean): Promise<void>;
  /** The connection's state (`connected` once media flows both ways). */
  state(name: string): Promise<RTCPeerConnectionState | 'none'>;
  /** What the end hears now at each frequency, in dB (about -20 for a tone, under -80 for silence). */
  levels(name: string, frequencies: number[]): Promise<number[]>;
  /** Closes the end's connection (a page that closes). */
  hangUp(name: string): Promise<void>;
  /** The end's outbound RTP: packets sent so far. */
  packetsSent(name: string): Promise<number>;
  close(): Promise<void>;
}

/** One headless Chromium for a test file's pages. */
export function launchMediaBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

/** What a page does with a remote stream: plays it (muted) and measures it. */
function installReceiver(): void {
  window.__hear = (end: MediaEnd, stream: MediaStream) => {
    const audio = window.__audio as AudioContext;
    // Chromium plays a remote WebRTC stream into Web Audio only while a media element holds it.
    const element = new Audio();
    element.muted = true;
    element.srcObject = stream;
    void element.play().catch(() => {});
    const analyser = audio.createAnalyser();
    analyser.fftSize = 8192;
    analyser.smoothingTimeConstant = 0.5;
    audio.createMediaStreamSource(stream).connect(analyser);
    end.analyser = analyser;
  };
}

/** A page of that browser on `origin` (a secure origin for WebRTC: http://127.0.0.1:port). */
export async function mediaPage(browser: Browser, origin: string): Promise<MediaPage> {
  const page = await browser.newPage();
  // Any answer will do (even a 404): the page only needs to be of this origin.
  await page.goto(`${origin}/media-test`).catch(() => {});
  await page.evaluate(installReceiver);

  return {
    page,
    offer: (name, options = {}) =>
      page.evaluate(
        async ([name, tone, enabled, sendOnly]) => {
          window.__audio ??= new AudioContext({ sampleRate: 48_000 });
          const audio = window.__audio;
          await audio.resume();
          const pc = new RTCPeerConnection();
          let track: MediaStreamTrack | null = null;
          if (tone) {
            const oscillator = audio.createOscillator();
            oscillator.frequency.value = tone;
            const gain = audio.createGain();
            gain.gain.value = 0.3;
            const out = audio.createMediaStreamDestination();
            oscillator.connect(gain).connect(out);
            oscillator.start();
            track = out.stream.getAudioTracks()[0];
            track.enabled = enabled;
            if (sendOnly) pc.addTransceiver(track, { direction: 'sendonly', streams: [out.stream] });
            else pc.addTrack(track, out.stream);
          } else pc.addTransceiver('audio', { direction: 'recvonly' });
          const end: MediaEnd = { pc, track, analyser: null };
          pc.ontrack = (event) => window.__hear?.(end, event.streams[0] ?? new MediaStream([event.track]));
          window.__ends ??= {};
          window.__ends[name] = end;
          await pc.setLocalDescription(await pc.createOffer());
          await new Promise<void>((resolve) => {
            if (pc.iceGatheringState === 'complete') return resolve();
            pc.addEventListener('icegatheringstatechange', () => {
              if (pc.iceGatheringState === 'complete') resolve();
            });
          });
          return pc.localDescription?.sdp ?? '';
        },
        [name, options.tone ?? 0, options.enabled ?? false, options.sendOnly ?? false] as const,
      ),
    answerOffer: (name, sdp) =>
      page.evaluate(
        async ([name, sdp]) => {
          window.__audio ??= new AudioContext({ sampleRate: 48_000 });
          await window.__audio.resume();
          const pc = new RTCPeerConnection();
          const end: MediaEnd = { pc, track: null, analyser: null };
          pc.ontrack = (event) => window.__hear?.(end, event.streams[0] ?? new MediaStream([event.track]));
          window.__ends ??= {};
          window.__ends[name] = end;
          await pc.setRemoteDescription({ type: 'offer', sdp });
          await pc.setLocalDescription(await pc.createAnswer());
          await new Promise<void>((resolve) => {
            if (pc.iceGatheringState === 'complete') return resolve();
            pc.addEventListener('icegatheringstatechange', () => {
              if (pc.iceGatheringState === 'complete') resolve();
            });
          });
          return pc.localDescription?.sdp ?? '';
        },
        [name, sdp] as const,
      ),
    answer: (name, sdp) =>
      page.evaluate(
        async ([name, sdp]) => {
          const end = window.__ends?.[name];
          if (!end) throw new Error(`no end ${name}`);
          await end.pc.setRemoteDescription({ type: 'answer', sdp });
        },
        [name, sdp] as const,
      ),
    talk: (name, on) =>
      page.evaluate(
        ([name, on]) => {
          const track = window.__ends?.[name]?.track;
          if (track) track.enabled = on;
        },
        [name, on] as const,
      ),
    state: (name) => page.evaluate((name) => window.__ends?.[name]?.pc.connectionState ?? 'none', name),
    levels: (name, frequencies) =>
      page.evaluate(
        ([name, frequencies]) => {
          const analyser = window.__ends?.[name]?.analyser;
          if (!analyser || !window.__audio) return frequencies.map(() => -200);
          const bins = new Float32Array(analyser.frequencyBinCount);
          analyser.getFloatFrequencyData(bins);
          const width = window.__audio.sampleRate / analyser.fftSize;
          return frequencies.map((frequency) => {
            const at = Math.round(frequency / width);
            let loudest = -200;
            for (let bin = at - 3; bin <= at + 3; bin += 1)
              if (bin >= 0 && bin < bins.length) loudest = Math.max(loudest, bins[bin]);
            return loudest;
          });
        },
        [name, frequencies] as const,
      ),
    hangUp: (name) =>
      page.evaluate((name) => {
        window.__ends?.[name]?.pc.close();
        if (window.__ends) delete window.__ends[name];
      }, name),
    packetsSent: (name) =>
      page.evaluate(async (name) => {
        const pc = window.__ends?.[name]?.pc;
        if (!pc) return 0;
        let sent = 0;
        for (const report of (await pc.getStats()).values())
          if (report.type === 'outbound-rtp') sent += (report as { packetsSent?: number }).packetsSent ?? 0;
        return sent;
      }, name),
    close: () => page.close(),
  };
}
