/**
 * What bench/video reads in the pages (issue 61 item 6): the console's first decoded frame of each new <video>
 * (`requestVideoFrameCallback`), the frames a second and the size a <video> receives
 * (`getVideoPlaybackQuality`), and on the sharing page the video bytes it sends and the cap on its uplink
 * (`RTCRtpSender.setParameters`, maxBitrate on its encodings; the page's connections kept by
 * e2e/media-servers.ts's exposeConnections).
 */
import type { Locator, Page } from '@playwright/test';

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface FrameMarks {
  __firstFrames: number[];
}

/** Every <video> the console adds from now on marks its first decoded frame (wall-clock ms). */
export async function markFirstFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    const marks = window as unknown as FrameMarks;
    marks.__firstFrames = [];
    const seen = new WeakSet<HTMLVideoElement>();
    const watch = () => {
      for (const video of document.querySelectorAll('video')) {
        if (seen.has(video)) continue;
        seen.add(video);
        video.requestVideoFrameCallback((now) => marks.__firstFrames.push(performance.timeOrigin + now));
      }
    };
    new MutationObserver(watch).observe(document.body, { childList: true, subtree: true });
    watch();
  });
}

/** Forgets the marks so far (and, the console's <video> elements being new at each stream, marks the next). */
export async function clearFirstFrames(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as FrameMarks).__firstFrames.length = 0;
  });
}

/** The first frame marked since the last clear, waiting up to `timeoutMs`; null if none came. */
export async function firstFrame(page: Page, timeoutMs = 30_000): Promise<number | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const first = await page.evaluate(() => (window as unknown as FrameMarks).__firstFrames[0] ?? null);
    if (first !== null) return first;
    await pause(20);
  }
  return null;
}

/** The frames a second a <video> shows over `windowMs`, and the size of its last frame. */
export async function framesReceived(
  video: Locator,
  windowMs: number,
): Promise<{ fps: number; width: number; height: number }> {
  const count = () =>
    video.evaluate((element: HTMLVideoElement) => ({
      frames: element.getVideoPlaybackQuality().totalVideoFrames,
      at: performance.now(),
      width: element.videoWidth,
      height: element.videoHeight,
    }));
  const before = await count();
  await pause(windowMs);
  const after = await count();
  return {
    fps: ((after.frames - before.frames) * 1000) / (after.at - before.at),
    width: after.width,
    height: after.height,
  };
}

/** The video bytes the sharing page has sent, over all its connections (each mesh viewer is one). */
export function videoBytesSent(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let bytes = 0;
    for (const pc of (window as unknown as { __connections?: RTCPeerConnection[] }).__connections ?? []) {
      if (pc.connectionState === 'closed') continue;
      for (const report of (await pc.getStats()).values())
        if (report.type === 'outbound-rtp' && report.kind === 'video') bytes += report.bytesSent ?? 0;
    }
    return bytes;
  });
}

/**
 * Caps each video sender of the sharing page at `bitsPerSecond` (null: the app's own maxima back). The
 * simulcast layers (through Janus) keep their proportions and sum to the cap where the app's own maxima sum to
 * more; a sender without maxima gets the cap on its encoding. Returns the maxima set, per sender.
 */
export function capUplink(page: Page, bitsPerSecond: number | null): Promise<string[]> {
  return page.evaluate(async (cap) => {
    type Kept = RTCRtpSender & { __ownMaxima?: Array<number | undefined> };
    const set: string[] = [];
    for (const pc of (window as unknown as { __connections?: RTCPeerConnection[] }).__connections ?? []) {
      if (pc.connectionState === 'closed') continue;
      for (const sender of pc.getSenders() as Kept[]) {
        if (sender.track?.kind !== 'video') continue;
        const parameters = sender.getParameters();
        sender.__ownMaxima ??= parameters.encodings.map((encoding) => encoding.maxBitrate);
        const own = sender.__ownMaxima;
        const sum = own.reduce<number>((total, max) => total + (max ?? 0), 0);
        parameters.encodings.forEach((encoding, index) => {
          if (cap === null) {
            if (own[index] === undefined) delete encoding.maxBitrate;
            else encoding.maxBitrate = own[index];
          } else if (sum === 0) encoding.maxBitrate = Math.round(cap / parameters.encodings.length);
          else encoding.maxBitrate = Math.round((own[index] ?? 0) * Math.min(1, cap / sum));
        });
        await sender.setParameters(parameters);
        set.push(
          parameters.encodings
            .map((encoding) => `${encoding.rid ?? 'one'} ${Math.round((encoding.maxBitrate ?? 0) / 1000)}k`)
            .join(' + '),
        );
      }
    }
    return set;
  }, bitsPerSecond);
}
