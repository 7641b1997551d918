/**
 * WAV files for the SIP gateway's tests: a tiny writer (a tone or silence for baresip's aufile source, which
 * takes 16-bit PCM only) and a reader with a Goertzel measure of one frequency, to tell whether a recording
 * (baresip's sndfile dump, a page's capture) holds a tone and how loud.
 */
import { readFile, writeFile } from 'node:fs/promises';

export interface Wav {
  rate: number;
  channels: number;
  /** The first channel's samples, from -1 to 1. */
  samples: Float32Array;
}

/** Writes 16-bit PCM samples (interleaved when `channels` > 1) as a WAV file. */
export async function writeWav(path: string, samples: Int16Array, rate: number, channels = 1): Promise<void> {
  const header = Buffer.alloc(44);
  const dataBytes = samples.length * 2;
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  const data = Buffer.from(samples.buffer, samples.byteOffset, dataBytes);
  await writeFile(path, Buffer.concat([header, data]));
}

/**
 * Writes a mono sine of `hz` (a 1 kHz test tone by default) at `amplitude` of full scale; `hz` 0 writes silence.
 * The rate is the one the source will be opened at: baresip's aufile refuses a file whose rate differs.
 */
export async function writeToneWav(
  path: string,
  {
    hz = 1000,
    seconds,
    rate = 8000,
    amplitude = 0.5,
  }: { hz?: number; seconds: number; rate?: number; amplitude?: number },
): Promise<void> {
  const samples = new Int16Array(Math.round(seconds * rate));
  if (hz > 0) {
    for (let i = 0; i < samples.length; i++) {
      samples[i] = Math.round(amplitude * 32767 * Math.sin((2 * Math.PI * hz * i) / rate));
    }
  }
  await writeWav(path, samples, rate);
}

/** The format of a WAV file (to open baresip's source at the file's own rate and channels). */
export async function wavFormat(path: string): Promise<{ rate: number; channels: number; bits: number }> {
  const { format } = parseWav(await readFile(path));
  return format;
}

/**
 * Reads a 16-bit PCM WAV file. A file still being written (libsndfile fills in the sizes only when it closes
 * the file, at the call's end) is read to its last whole frame.
 */
export async function readWav(path: string): Promise<Wav> {
  const { format, data } = parseWav(await readFile(path));
  if (format.bits !== 16) throw new Error(`${path}: ${format.bits}-bit samples; only 16-bit PCM is read`);
  const frames = Math.floor(data.length / (2 * format.channels));
  const samples = new Float32Array(frames);
  for (let i = 0; i < frames; i++) samples[i] = data.readInt16LE(i * 2 * format.channels) / 32768;
  return { rate: format.rate, channels: format.channels, samples };
}

function parseWav(file: Buffer) {
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let format: { rate: number; channels: number; bits: number } | undefined;
  let offset = 12;
  while (offset + 8 <= file.length) {
    const id = file.toString('ascii', offset, offset + 4);
    const size = file.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      const tag = file.readUInt16LE(body);
      // 0xfffe (WAVE_FORMAT_EXTENSIBLE) carries PCM too; anything else (float, A-law) is not what we write or read.
      if (tag !== 1 && tag !== 0xfffe) throw new Error(`WAV format tag ${tag} is not PCM`);
      format = {
        channels: file.readUInt16LE(body + 2),
        rate: file.readUInt32LE(body + 4),
        bits: file.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format) throw new Error('WAV data before its fmt chunk');
      // An unfinished file says 0 (or more than there is): its data runs to the end of what is written.
      const end = size === 0 || body + size > file.length ? file.length : body + size;
      return { format, data: file.subarray(body, end) };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file without a data chunk');
}

/** The level in dBFS of each `blockMs` block of a recording, at `hz` (a sine's amplitude: full scale is 0 dB). */
export function toneProfile({ samples, rate }: Wav, hz: number, blockMs = 100): number[] {
  const size = Math.round((rate * blockMs) / 1000);
  // A Hann window keeps the energy of the codec's noise and of other tones out of the measured bin.
  const window = Float32Array.from({ length: size }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));
  const windowSum = window.reduce((sum, w) => sum + w, 0);
  const coefficient = 2 * Math.cos((2 * Math.PI * hz) / rate);
  const levels: number[] = [];
  for (let start = 0; start + size <= samples.length; start += size) {
    let previous = 0;
    let beforePrevious = 0;
    for (let i = 0; i < size; i++) {
      const current = samples[start + i] * window[i] + coefficient * previous - beforePrevious;
      beforePrevious = previous;
      previous = current;
    }
    const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
    const amplitude = (2 * Math.sqrt(Math.max(power, 0))) / windowSum;
    levels.push(20 * Math.log10(Math.max(amplitude, 1e-6)));
  }
  return levels;
}

/**
 * How loud `hz` is in a WAV file: the level in dBFS (a sine's amplitude, full scale 0 dB; -120 for an empty file)
 * of its loudest 100 ms block at that frequency. A 0.5-amplitude 1 kHz tone through G.711 or Opus reads about
 * -6 dB; silence or another tone, below -60 dB.
 */
export async function toneLevel(path: string, hz: number): Promise<number> {
  const levels = toneProfile(await readWav(path), hz);
  return levels.length === 0 ? -120 : Math.max(...levels);
}

/** How long (seconds) `hz` is louder than `thresholdDb` in a WAV file, by 100 ms blocks. */
export async function toneSeconds(path: string, hz: number, thresholdDb = -30): Promise<number> {
  return toneProfile(await readWav(path), hz).filter((level) => level > thresholdDb).length / 10;
}
