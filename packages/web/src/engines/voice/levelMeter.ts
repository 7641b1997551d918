/**
 * Received audio level per peer: AnalyserNodes on each remote stream, read on demand. Part of the opt-in
 * diagnostics (diagnostics.ts) that the browser tests and the latency bench read.
 */

interface Watched {
  source: MediaStreamAudioSourceNode;
  analyser: AnalyserNode;
  samples: Float32Array<ArrayBuffer>;
  recent: AnalyserNode;
  recentSamples: Float32Array<ArrayBuffer>;
}

/** 256 samples is 5 ms at 48 kHz: short enough that an onset or a fall shows at once. */
const WINDOW = 256;
/**
 * The largest window an AnalyserNode keeps, about 0.68 s at 48 kHz: one read covers that long, however
 * seldom a busy machine lets the page read it.
 */
const RECENT_WINDOW = 32768;

function peakOf(samples: Float32Array): number {
  let peak = 0;
  for (const sample of samples) {
    const magnitude = Math.abs(sample);
    if (magnitude > peak) peak = magnitude;
  }
  return peak;
}

/** The stretch `loudestStretch` measures: 50 ms, longer than what a jitter buffer's stretch or concealment upsets. */
const LOUDNESS_SECONDS = 0.05;

/**
 * The loudest stretch of `length` samples in `samples`, as the peak of a sine of the same power (RMS × √2: a
 * steady tone reads its own peak). A few milliseconds thrown off (the jitter buffer stretching or concealing
 * a packet) hardly move it, where they move the peak; a sound that stays loud for a stretch does.
 */
export function loudestStretch(samples: Float32Array, length: number): number {
  let loudest = 0;
  for (let start = 0; start + length <= samples.length; start += length) {
    let power = 0;
    for (let i = start; i < start + length; i += 1) power += samples[i] * samples[i];
    loudest = Math.max(loudest, power / length);
  }
  return Math.sqrt(2 * loudest);
}

/**
 * Index of the first loud sample of the last sound in `samples` that follows at least 20 ms of quiet (a
 * tone's zero crossings are far shorter), or null when none does.
 */
export function lastOnset(samples: Float32Array, threshold: number, sampleRate: number): number | null {
  const quietNeeded = Math.round(sampleRate * 0.02);
  let quiet = 0;
  let onset: number | null = null;
  for (let i = 0; i < samples.length; i += 1) {
    if (Math.abs(samples[i]) <= threshold) quiet += 1;
    else {
      if (quiet >= quietNeeded) onset = i;
      quiet = 0;
    }
  }
  return onset;
}

/**
 * The peak of the first `seconds` of the last sound in `samples` (from `lastOnset`), or null when there is none
 * or that much of it is not in `samples` yet.
 */
export function onsetPeakOf(
  samples: Float32Array,
  threshold: number,
  sampleRate: number,
  seconds: number,
): number | null {
  const first = lastOnset(samples, threshold, sampleRate);
  const length = Math.round(sampleRate * seconds);
  if (first === null || first + length > samples.length) return null;
  return peakOf(samples.subarray(first, first + length));
}

export class LevelMeter {
  private context: AudioContext | null = null;
  private readonly watched = new Map<string, Watched>();

  private audioContext(): AudioContext | null {
    if (this.context) return this.context;
    if (typeof AudioContext === 'undefined') return null;
    this.context = new AudioContext();
    return this.context;
  }

  resume(): void {
    if (this.context?.state === 'suspended') void this.context.resume().catch(() => {});
  }

  watch(id: string, stream: MediaStream): void {
    const context = this.audioContext();
    if (!context || stream.getAudioTracks().length === 0) return;
    this.unwatch(id);
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = WINDOW;
    source.connect(analyser);
    const recent = context.createAnalyser();
    recent.fftSize = RECENT_WINDOW;
    source.connect(recent);
    this.watched.set(id, {
      source,
      analyser,
      samples: new Float32Array(WINDOW),
      recent,
      recentSamples: new Float32Array(RECENT_WINDOW),
    });
    this.resume();
  }

  unwatch(id: string): void {
    const entry = this.watched.get(id);
    if (!entry) return;
    entry.source.disconnect();
    entry.analyser.disconnect();
    entry.recent.disconnect();
    this.watched.delete(id);
  }

  /** What is watched now (the ids given to watch). */
  ids(): string[] {
    return [...this.watched.keys()];
  }

  /** Peak absolute sample value (0..1) of the last few milliseconds. */
  level(id: string): number {
    const entry = this.watched.get(id);
    if (!entry) return 0;
    entry.analyser.getFloatTimeDomainData(entry.samples);
    return peakOf(entry.samples);
  }

  /** Peak absolute sample value (0..1) of the last ~0.68 s. */
  recentPeak(id: string): number {
    const entry = this.watched.get(id);
    if (!entry) return 0;
    entry.recent.getFloatTimeDomainData(entry.recentSamples);
    return peakOf(entry.recentSamples);
  }

  /**
   * The level of the loudest 50 ms of the last ~0.68 s (loudestStretch): the level a voice arrives with,
   * which a glitch of a few milliseconds does not raise and a burst of a tenth of a second does.
   */
  recentLevel(id: string): number {
    const entry = this.watched.get(id);
    if (!entry || !this.context) return 0;
    entry.recent.getFloatTimeDomainData(entry.recentSamples);
    return loudestStretch(entry.recentSamples, Math.round(this.context.sampleRate * LOUDNESS_SECONDS));
  }

  /**
   * The peak (0..1) of the first `seconds` of the last sound in the last ~0.68 s (its onset: `lastOnset` at
   * `threshold`), or null while that much of it has not played yet (or no onset is in the window): how loud a
   * transmission's start came out, against its steady level (recentPeak a second later).
   */
  onsetPeak(id: string, threshold: number, seconds: number): number | null {
    const entry = this.watched.get(id);
    if (!entry || !this.context) return null;
    entry.recent.getFloatTimeDomainData(entry.recentSamples);
    return onsetPeakOf(entry.recentSamples, threshold, this.context.sampleRate, seconds);
  }

  /**
   * Polls a peer's level until it is above (or below) `threshold`; resolves with the epoch time in
   * milliseconds of the first poll that saw it, or null after `timeoutMs`.
   */
  waitFor(id: string, threshold: number, timeoutMs: number, above: boolean): Promise<number | null> {
    const start = performance.now();
    return new Promise((resolve) => {
      const poll = () => {
        const level = this.level(id);
        const now = performance.now();
        if (above ? level > threshold : level < threshold) {
          clearInterval(timer);
          resolve(performance.timeOrigin + now);
        } else if (now - start > timeoutMs) {
          clearInterval(timer);
          resolve(null);
        }
      };
      const timer = setInterval(poll, 2);
      poll();
    });
  }

  /**
   * Waits until a peer's level rises above `threshold`, then finds where the sound began in the last
   * ~0.68 s of samples: resolves with the epoch time (ms) at which that first loud sample was rendered, or
   * null after `timeoutMs` (or when the sound began before the window). Unlike a poll, it does not depend
   * on when the page's main thread gets to look: the latency bench's detector.
   */
  waitForOnset(id: string, threshold: number, timeoutMs: number): Promise<number | null> {
    const start = performance.now();
    const context = this.context;
    const entry = this.watched.get(id);
    if (!context || !entry) return Promise.resolve(null);
    // Render time of a context time: the smallest lag seen between the clock and currentTime is the moment
    // right after the audio thread rendered.
    let lag = Number.POSITIVE_INFINITY;
    return new Promise((resolve) => {
      const poll = () => {
        const now = performance.now();
        lag = Math.min(lag, now - context.currentTime * 1000);
        if (this.level(id) > threshold) {
          clearInterval(timer);
          entry.recent.getFloatTimeDomainData(entry.recentSamples);
          const end = context.currentTime;
          const first = lastOnset(entry.recentSamples, threshold, context.sampleRate);
          if (first === null) return resolve(null);
          const onset = end - (entry.recentSamples.length - first) / context.sampleRate;
          resolve(performance.timeOrigin + onset * 1000 + lag);
        } else if (now - start > timeoutMs) {
          clearInterval(timer);
          resolve(null);
        }
      };
      const timer = setInterval(poll, 2);
      poll();
    });
  }

  close(): void {
    for (const id of [...this.watched.keys()]) this.unwatch(id);
    void this.context?.close().catch(() => {});
    this.context = null;
  }
}
