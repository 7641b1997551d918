/**
 * Recognises a recorded transmission by its bytes: Opus in WebM (Chromium's MediaRecorder) or in Ogg
 * (Firefox's), or AAC or Opus in MP4 (Safari's, and the recorder's last format but one: issue 70). The file's
 * name and declared type are never trusted.
 */
export type VoiceMimeType = 'audio/webm' | 'audio/ogg' | 'audio/mp4';

export const VOICE_EXTENSIONS: Record<VoiceMimeType, string> = {
  'audio/webm': 'webm',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
};

/** The header of a MediaRecorder file names its codec well within this many bytes. */
const HEADER_WINDOW = 4096;

function includesAscii(bytes: Uint8Array, text: string, from: number, to: number): boolean {
  const needle = [...text].map((ch) => ch.charCodeAt(0));
  const end = Math.min(to, bytes.length) - needle.length;
  for (let i = from; i <= end; i++) {
    if (needle.every((b, k) => bytes[i + k] === b)) return true;
  }
  return false;
}

export function sniffVoice(bytes: Uint8Array): VoiceMimeType | undefined {
  // WebM: an EBML header whose DocType is "webm", and an audio track whose CodecID is A_OPUS.
  if (bytes.length >= 32 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) {
    if (includesAscii(bytes, 'webm', 4, 64) && includesAscii(bytes, 'A_OPUS', 4, HEADER_WINDOW)) return 'audio/webm';
    return undefined;
  }
  // Ogg: the first page ("OggS", version 0) carries the Opus identification header ("OpusHead").
  if (bytes.length >= 47 && includesAscii(bytes, 'OggS', 0, 4) && bytes[4] === 0) {
    const payload = 27 + bytes[26];
    if (includesAscii(bytes, 'OpusHead', payload, payload + 8)) return 'audio/ogg';
  }
  // MP4: an "ftyp" box first, and an audio sample entry of AAC ("mp4a") or Opus ("Opus") in the header.
  if (bytes.length >= 32 && includesAscii(bytes, 'ftyp', 4, 8)) {
    if (includesAscii(bytes, 'mp4a', 8, HEADER_WINDOW) || includesAscii(bytes, 'Opus', 8, HEADER_WINDOW))
      return 'audio/mp4';
  }
  return undefined;
}
