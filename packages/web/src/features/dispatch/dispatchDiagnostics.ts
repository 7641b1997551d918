/**
 * Opt-in diagnostics of the dispatch console (like the voice rooms': off unless the page asks for them before
 * it loads, window.__talkgroupDiagnostics or ?diagnostics): what the page plays of each channel, after its
 * level, read behind each channel's gain. The browser tests read it to tell the selected level from the
 * unselected one.
 */
import type { ChannelOutput } from './channelOutput.ts';

export interface DispatchDiagnostics {
  rooms(): string[];
  /** The gain of a channel now (0..1). */
  level(room: string): number;
  /** The loudest the page played of a channel over the last ~0.7 s, after its gain (0..1). */
  recentPeak(room: string): number;
}

declare global {
  interface Window {
    __talkgroupDispatch?: DispatchDiagnostics;
  }
}

const WINDOW_MS = 700;
const EVERY_MS = 40;

export function attachDispatchDiagnostics(outputs: () => Map<string, ChannelOutput>): () => void {
  const peaks = new Map<string, Array<{ at: number; peak: number }>>();
  const timer = setInterval(() => {
    const now = performance.now();
    for (const [room, output] of outputs()) {
      const kept = (peaks.get(room) ?? []).filter((entry) => now - entry.at <= WINDOW_MS);
      kept.push({ at: now, peak: output.peak() });
      peaks.set(room, kept);
    }
  }, EVERY_MS);
  const handle: DispatchDiagnostics = Object.freeze({
    rooms: () => [...outputs().keys()],
    level: (room: string) => outputs().get(room)?.level ?? 0,
    recentPeak: (room: string) => Math.max(0, ...(peaks.get(room) ?? []).map((entry) => entry.peak)),
  });
  window.__talkgroupDispatch = handle;
  return () => {
    clearInterval(timer);
    if (window.__talkgroupDispatch === handle) delete window.__talkgroupDispatch;
  };
}

export function diagnosticsRequested(): boolean {
  return window.__talkgroupDiagnostics === true || new URLSearchParams(window.location.search).has('diagnostics');
}
