/**
 * Recognises a recorded stream by its bytes (issue 61): WebM as MediaRecorder writes it, an EBML header whose
 * DocType is "webm", then a video track (a CodecID of VP8, VP9, AV1 or H.264) within the first bytes. The file's
 * name and declared type are never trusted.
 */

/** MediaRecorder writes the tracks right after the header: their codecs are well within this many bytes. */
export const VIDEO_HEADER_WINDOW = 64 * 1024;
const VIDEO_CODECS = ['V_VP8', 'V_VP9', 'V_AV1', 'V_MPEG4/ISO/AVC'];
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];
/** The EBML element ids of DocType and of a track's CodecID. */
const DOC_TYPE = [0x42, 0x82];
const CODEC_ID = 0x86;

function indexOf(bytes: Uint8Array, needle: number[], from: number, to: number): number {
  const end = Math.min(to, bytes.length) - needle.length;
  for (let i = from; i <= end; i++) if (needle.every((b, k) => bytes[i + k] === b)) return i;
  return -1;
}

/** An element's value of one size byte (0x80 | length, as MediaRecorder writes short strings), as ASCII. */
function shortString(bytes: Uint8Array, at: number): string | undefined {
  const size = bytes[at];
  if (size === undefined || size < 0x81 || size > 0x80 + 32) return undefined;
  const length = size & 0x7f;
  if (at + 1 + length > bytes.length) return undefined;
  return String.fromCharCode(...bytes.subarray(at + 1, at + 1 + length));
}

export function isWebmVideo(bytes: Uint8Array): boolean {
  if (bytes.length < 32 || !EBML_MAGIC.every((b, i) => bytes[i] === b)) return false;
  const docType = indexOf(bytes, DOC_TYPE, 4, 64);
  if (docType < 0 || shortString(bytes, docType + 2) !== 'webm') return false;
  for (let at = docType + 2; at < Math.min(bytes.length, VIDEO_HEADER_WINDOW); at++) {
    if (bytes[at] !== CODEC_ID) continue;
    const codec = shortString(bytes, at + 1);
    if (codec && VIDEO_CODECS.includes(codec)) return true;
  }
  return false;
}
