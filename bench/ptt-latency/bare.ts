/**
 * The floor of press-to-sound: two bare RTCPeerConnections in one page, connected over loopback, the fake
 * microphone's track added at once (disabled) and negotiated before any press, as the room does. A "press"
 * enables the track; the time to the receiving side's level crossing the threshold is the browser's own
 * pipeline (capture, Opus, RTP, jitter buffer, decode) with no server, no floor and no UI.
 */
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __bare?: {
      press(): number;
      release(): void;
      waitForLevel(threshold: number, timeoutMs: number, above: boolean): Promise<number | null>;
    };
  }
}

/** Sets the bare pair up in `page` (any page of a secure origin: localhost). */
export async function setUpBarePair(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
    const [track] = stream.getAudioTracks();
    track.enabled = false;
    const sender = new RTCPeerConnection();
    const receiver = new RTCPeerConnection();
    sender.onicecandidate = (event) => event.candidate && void receiver.addIceCandidate(event.candidate);
    receiver.onicecandidate = (event) => event.candidate && void sender.addIceCandidate(event.candidate);
    const remote = new Promise<MediaStream>((resolve) => {
      receiver.ontrack = (event) => resolve(event.streams[0] ?? new MediaStream([event.track]));
    });
    sender.addTrack(track, stream);
    await sender.setLocalDescription(await sender.createOffer());
    await receiver.setRemoteDescription(sender.localDescription as RTCSessionDescription);
    await receiver.setLocalDescription(await receiver.createAnswer());
    await sender.setRemoteDescription(receiver.localDescription as RTCSessionDescription);
    const incoming = await remote;
    // Chrome pulls remote audio into Web Audio only while a media element plays it.
    const element = new Audio();
    element.muted = true;
    element.srcObject = incoming;
    void element.play().catch(() => {});
    const context = new AudioContext();
    void context.resume();
    const analyser = context.createAnalyser();
    analyser.fftSize = 256;
    context.createMediaStreamSource(incoming).connect(analyser);
    const samples = new Float32Array(256);
    const level = () => {
      analyser.getFloatTimeDomainData(samples);
      let peak = 0;
      for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
      return peak;
    };
    window.__bare = {
      press() {
        track.enabled = true;
        return performance.timeOrigin + performance.now();
      },
      release() {
        track.enabled = false;
      },
      waitForLevel(threshold, timeoutMs, above) {
        return new Promise((resolve) => {
          const start = performance.now();
          // Silence must hold a while: late packets of the last press may still be playing out.
          let quietSince: number | null = null;
          const timer = setInterval(() => {
            const now = level();
            if (!above) quietSince = now < threshold ? (quietSince ?? performance.now()) : null;
            if (above ? now > threshold : quietSince !== null && performance.now() - quietSince >= 200) {
              clearInterval(timer);
              resolve(performance.timeOrigin + performance.now());
            } else if (performance.now() - start > timeoutMs) {
              clearInterval(timer);
              resolve(null);
            }
          }, 1);
        });
      },
    };
    // Wait for the connection.
    for (let i = 0; i < 200 && receiver.connectionState !== 'connected'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
}

/** One press in the bare pair: ms from enabling the track to the level crossing `threshold`, or null. */
export async function barePress(page: Page, soundThreshold: number, silenceThreshold: number): Promise<number | null> {
  await page.evaluate(([threshold]) => window.__bare?.waitForLevel(threshold, 3000, false), [silenceThreshold]);
  const heard = page.evaluate(([threshold]) => window.__bare?.waitForLevel(threshold, 3000, true), [soundThreshold]);
  await new Promise((resolve) => setTimeout(resolve, 80 + Math.random() * 40));
  const pressedAt = await page.evaluate(() => window.__bare?.press() ?? 0);
  const heardAt = await heard;
  await page.evaluate(() => window.__bare?.release());
  return heardAt == null ? null : heardAt - pressedAt;
}
