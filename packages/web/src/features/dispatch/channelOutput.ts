/**
 * The dispatch console's loudspeaker: one Web Audio graph for the page, a gain per channel (the tile's level:
 * its own volume, times the unselected level unless it is the selected tile; 0 when muted), so that every
 * channel is heard at once, each at its level (Dimetra's selected and unselected speakers). An analyser sits
 * behind each gain: what the page plays of a channel, after its level (the diagnostics read it).
 */
import type { AudioOutput } from '../../engines/voice/index.ts';

/** The page's one audio context, made on first use and resumed at each gesture (autoplay policies). */
let shared: AudioContext | null = null;

export function dispatchAudio(): AudioContext {
  shared ??= new AudioContext();
  if (shared.state === 'suspended') void shared.resume().catch(() => {});
  return shared;
}

export class ChannelOutput implements AudioOutput {
  private readonly context: AudioContext;
  private readonly gain: GainNode;
  private readonly analyser: AnalyserNode;
  private readonly sources = new Map<string, MediaStreamAudioSourceNode>();
  private readonly samples: Float32Array<ArrayBuffer>;

  constructor(context: AudioContext = dispatchAudio()) {
    this.context = context;
    this.gain = context.createGain();
    this.gain.connect(context.destination);
    this.analyser = context.createAnalyser();
    this.analyser.fftSize = 2048;
    this.samples = new Float32Array(this.analyser.fftSize);
    this.gain.connect(this.analyser);
  }

  attach(id: string, stream: MediaStream): void {
    this.detach(id);
    if (stream.getAudioTracks().length === 0) return;
    const source = this.context.createMediaStreamSource(stream);
    source.connect(this.gain);
    this.sources.set(id, source);
  }

  detach(id: string): void {
    this.sources.get(id)?.disconnect();
    this.sources.delete(id);
  }

  /** 0..1: the channel's level from now on (a short ramp: no click). */
  setLevel(level: number): void {
    const value = Math.max(0, Math.min(1, level));
    this.gain.gain.setTargetAtTime(value, this.context.currentTime, 0.015);
  }

  get level(): number {
    return this.gain.gain.value;
  }

  /** The loudest sample the page played of this channel over the analyser's window (~43 ms), after its level. */
  peak(): number {
    this.analyser.getFloatTimeDomainData(this.samples);
    let peak = 0;
    for (const sample of this.samples) peak = Math.max(peak, Math.abs(sample));
    return peak;
  }

  close(): void {
    for (const id of [...this.sources.keys()]) this.detach(id);
    this.gain.disconnect();
    this.analyser.disconnect();
  }
}
