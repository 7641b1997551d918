/**
 * A G.711 gateway's voice turned into Opus before Janus, and the channel's Opus back into G.711 (issue 51).
 *
 * Why: Janus's AudioBridge (1.1) takes a G.711 participant into its 48 kHz mix by putting five zeros between
 * every two samples (janus_audiobridge_resample: no interpolation filter, no gain), which divides the voice's
 * level by six (-15.6 dB: a radio arrived 15.5 dB below a member sending the same tone) and adds images of it at
 * 8 kHz ± f, 16 kHz ± f...; it takes the mix back to 8 kHz by keeping one sample in six, without a low-pass
 * filter, so what the pages say above 4 kHz folds back into the radio's band. libopus resamples properly: an
 * encoder at 8 kHz takes the gateway's samples as they are, and a decoder asked for 8 kHz gives the channel's
 * voice band-limited. Janus then only ever sees Opus from a gateway, and records its takes as it records every
 * other (Ogg Opus, no conversion of ours).
 *
 * libopus comes from opusscript (libopus 1.4 compiled to WebAssembly, no native addon): one encoding is about
 * 0.1 ms of a core per 20 ms frame, a decoding 0.01 ms (measured here), about 0.6 % of a core per call. It runs on
 * the relay's threads (relay-thread.ts), never on the main thread: the module below is loaded once per thread.
 */
import { createRequire } from 'node:module';
import { decodeG711, encodeG711Samples, type G711 } from './rtp.ts';

/** libopus's handle in opusscript's WebAssembly module (its embind class). */
interface OpusHandler {
  _encode(input: number, bytes: number, output: number, frameSize: number): number;
  _decode(input: number, bytes: number, output: number): number;
}

interface OpusModule {
  OpusScriptHandler: {
    new (rate: number, channels: number, application: number): OpusHandler;
    destroy_handler(handler: OpusHandler): void;
  };
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  /** The module's memory, a new view each time it grows: read it at each use. */
  HEAPU16: Uint16Array;
}

/**
 * opusscript's module, used directly rather than through its OpusScript class: that class keeps views of the
 * module's memory made once (views of a buffer that a later growth detaches: "offset is out of bounds" once a
 * few dozen calls had grown it, which ended the server) and indexes its 16-bit view with byte addresses. Here
 * every copy goes through the module's current view, at the addresses malloc gave.
 *
 * Its handler's own layout (src/opusscript_encoder.cpp): `_encode` takes the PCM's bytes one per 16-bit element
 * (it joins each pair into a sample in place) and `_decode` gives them back the same way, low byte first.
 */
let opus: OpusModule | undefined;
const opusModule = (): OpusModule =>
  (opus ??= (createRequire(import.meta.url)('opusscript/build/opusscript_native_wasm.js') as () => OpusModule)());

/** OPUS_APPLICATION_VOIP. */
const VOIP = 2048;
/** The most samples of a frame at 8 kHz (120 ms), and the most an Opus packet holds (opusscript's bound). */
const MAX_SAMPLES = 960;
const MAX_PACKET = 1276 * 3;
/** Room for a frame one byte per 16-bit element, which `_encode` reads up to twice over. */
const PCM_BYTES = MAX_SAMPLES * 2 * 2 * 2;

/** One libopus encoder or decoder at 8 kHz, mono, with its buffers in the module's memory. */
class Codec8k {
  readonly #handler: OpusHandler;
  readonly #pcm: number;
  readonly #packet: number;

  constructor() {
    const module = opusModule();
    this.#handler = new module.OpusScriptHandler(8000, 1, VOIP);
    this.#pcm = module._malloc(PCM_BYTES);
    this.#packet = module._malloc(MAX_PACKET);
  }

  /** 20 ms of samples to an Opus packet. */
  encode(samples: Int16Array): Buffer {
    const module = opusModule();
    const bytes = new Uint8Array(samples.buffer, samples.byteOffset, samples.length * 2);
    module.HEAPU16.set(bytes, this.#pcm >> 1);
    const length = this.#handler._encode(this.#pcm, bytes.length, this.#packet, samples.length);
    if (length < 0) throw new Error(`libopus could not encode (${length})`);
    return Buffer.from(new Uint8Array(module.HEAPU16.buffer, this.#packet, length));
  }

  /** An Opus packet to its samples at 8 kHz (none when libopus refuses it). */
  decode(packet: Buffer): Int16Array {
    if (packet.length === 0 || packet.length > MAX_PACKET) return new Int16Array(0);
    const module = opusModule();
    new Uint8Array(module.HEAPU16.buffer, this.#packet, packet.length).set(packet);
    const count = this.#handler._decode(this.#packet, packet.length, this.#pcm);
    if (count <= 0) return new Int16Array(0);
    const halves = module.HEAPU16.subarray(this.#pcm >> 1, (this.#pcm >> 1) + Math.min(count, MAX_SAMPLES) * 2);
    const samples = new Int16Array(halves.length / 2);
    for (let i = 0; i < samples.length; i++) samples[i] = (halves[2 * i] & 0xff) | (halves[2 * i + 1] << 8);
    return samples;
  }

  close(): void {
    const module = opusModule();
    module.OpusScriptHandler.destroy_handler(this.#handler);
    module._free(this.#pcm);
    module._free(this.#packet);
  }
}

/** 20 ms at 8 kHz: the Opus frame the encoder is given. */
const FRAME = 160;
/** The Opus RTP clock is 48 kHz whatever the audio's rate (RFC 7587): a 20 ms frame advances it by this. */
export const OPUS_FRAME_TICKS = 960;

export class G711OpusBridge {
  readonly codec: G711;
  readonly #encoder = new Codec8k();
  readonly #decoder = new Codec8k();
  /** Samples from the gateway waiting to fill a 20 ms frame (a gateway may send 10, 30 or 40 ms packets). */
  #pending = new Int16Array(0);

  constructor(codec: G711) {
    this.codec = codec;
  }

  /** A G.711 payload from the gateway: the Opus packets of the whole 20 ms frames it completes. */
  toOpus(payload: Buffer): Buffer[] {
    const samples = decodeG711(this.codec, payload);
    const joined = new Int16Array(this.#pending.length + samples.length);
    joined.set(this.#pending);
    joined.set(samples, this.#pending.length);
    const packets: Buffer[] = [];
    let offset = 0;
    for (; offset + FRAME <= joined.length; offset += FRAME)
      packets.push(this.#encoder.encode(joined.subarray(offset, offset + FRAME)));
    this.#pending = joined.slice(offset);
    return packets;
  }

  /** An Opus payload of the channel's: its samples at 8 kHz as G.711 (empty when it cannot be decoded). */
  toG711(payload: Buffer): Buffer {
    return encodeG711Samples(this.codec, this.#decoder.decode(payload));
  }

  close(): void {
    this.#encoder.close();
    this.#decoder.close();
  }
}
