/**
 * What the voice history accepts, by its bytes (issue 70: the recorder's fallback formats): Opus in WebM or Ogg,
 * AAC or Opus in MP4 (Safari's MediaRecorder); anything else is refused whatever it is named.
 */
import { describe, expect, it } from 'vitest';
import { sniffVoice } from '../src/voice/audio.ts';

/** An MP4 header: an "ftyp" box, then a sample entry of `codec` somewhere in the header. */
function mp4(codec: string): Uint8Array {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypiso5', 4, 'ascii');
  return Buffer.concat([ftyp, Buffer.from(`moovtrakmdiastsd${codec}`), Buffer.alloc(64)]);
}

describe('sniffVoice', () => {
  it('accepts MP4 holding AAC or Opus, as Safari records it', () => {
    expect(sniffVoice(mp4('mp4a'))).toBe('audio/mp4');
    expect(sniffVoice(mp4('Opus'))).toBe('audio/mp4');
  });

  it('refuses an MP4 holding no audio it knows (a video track only)', () => {
    expect(sniffVoice(mp4('avc1'))).toBeUndefined();
  });

  it('refuses bytes that are no recording', () => {
    expect(sniffVoice(Buffer.from('RIFF....WAVEfmt and then some more bytes of a wave'))).toBeUndefined();
  });
});
