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
 * 0.1 ms of a core per 20 ms frame, a decoding 0.01 ms (measured here), about 0.6 % of a core per call.
 */
import OpusScript from 'opusscript';
import { decodeG711, encodeG711Samples, type G711 } from './rtp.ts';

/** 20 ms at 8 kHz: the Opus frame the encoder is given. */
const FRAME = 160;
/** The Opus RTP clock is 48 kHz whatever the audio's rate (RFC 7587): a 20 ms frame advances it by this. */
export const OPUS_FRAME_TICKS = 960;

export class G711OpusBridge {
  readonly codec: G711;
  readonly #encoder: OpusScript;
  readonly #decoder: OpusScript;
  /** Samples from the gateway waiting to fill a 20 ms frame (a gateway may send 10, 30 or 40 ms packets). */
  #pending = new Int16Array(0);

  constructor(codec: G711) {
    this.codec = codec;
    this.#encoder = new OpusScript(8000, 1, OpusScript.Application.VOIP);
    this.#decoder = new OpusScript(8000, 1, OpusScript.Application.VOIP);
  }

  /** A G.711 payload from the gateway: the Opus packets of the whole 20 ms frames it completes. */
  toOpus(payload: Buffer): Buffer[] {
    const samples = decodeG711(this.codec, payload);
    const joined = new Int16Array(this.#pending.length + samples.length);
    joined.set(this.#pending);
    joined.set(samples, this.#pending.length);
    const packets: Buffer[] = [];
    let offset = 0;
    for (; offset + FRAME <= joined.length; offset += FRAME) {
      const frame = Buffer.from(joined.buffer, joined.byteOffset + offset * 2, FRAME * 2);
      packets.push(Buffer.from(this.#encoder.encode(frame, FRAME)));
    }
    this.#pending = joined.slice(offset);
    return packets;
  }

  /** An Opus payload of the channel's: its samples at 8 kHz as G.711 (empty when it cannot be decoded). */
  toG711(payload: Buffer): Buffer {
    try {
      const decoded = this.#decoder.decode(payload);
      return encodeG711Samples(
        this.codec,
        new Int16Array(decoded.buffer, decoded.byteOffset, Math.floor(decoded.length / 2)),
      );
    } catch {
      return Buffer.alloc(0);
    }
  }

  close(): void {
    this.#encoder.delete();
    this.#decoder.delete();
  }
}
