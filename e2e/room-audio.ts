/**
 * The fake microphone of the room tests and the latency bench: a WAV file that Chromium plays in a loop
 * as the microphone (--use-file-for-fake-audio-capture), 48 kHz mono 16-bit PCM.
 */
import { writeFileSync } from 'node:fs';

export interface ToneOptions {
  /** Hz. */
  frequency?: number;
  /** 0..1 of full scale. */
  amplitude?: number;
  seconds?: number;
  sampleRate?: number;
}

/** A continuous sine tone: with it, a press is the only onset the listener can hear. */
export function toneWav({ frequency = 1000, amplitude = 0.33, seconds = 2, sampleRate = 48000 }: ToneOptions = {}) {
  // Whole periods, so that the loop has no click at its seam.
  const periods = Math.max(1, Math.round(frequency * seconds));
  const samples = Math.round((periods * sampleRate) / frequency);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) {
    const value = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * frequency * i) / sampleRate));
    data.writeInt16LE(value, i * 2);
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16); // PCM format chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28); // byte rate
  header.writeUInt16LE(2, 32); // block align
  header.writeUInt16LE(16, 34); // bits per sample
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

export function writeToneWav(file: string, options?: ToneOptions): string {
  writeFileSync(file, toneWav(options));
  return file;
}

/** Chromium flags that give every page of the browser this file as its microphone. */
export function fakeMicrophoneArgs(wavFile: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${wavFile}`,
    '--autoplay-policy=no-user-gesture-required',
  ];
}
