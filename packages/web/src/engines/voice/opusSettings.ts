/**
 * What the voice room asks of the audio it receives. Opus settings are written into each local description
 * (offer and answer) before it is set: in SDP these are the receiver's wishes, which the other side's
 * encoder follows; an older client that does not ask still talks with us in the browser's defaults. And a
 * jitter buffer minimum for each receiver (JITTER_BUFFER_TARGET_MS).
 *
 * Measured in the bare pair of `npm run bench:ptt -- --variants` (two RTCPeerConnections in headless
 * Chromium, presses alternated with the defaults' pair, fresh pairs each round; load 1 to 5 on 2 cores):
 * - `usedtx=1`: while the button is up the muted track is digital silence, and Opus sends a few packets a
 *   second instead of 50. The receiver's jitter buffer then holds no silence in front of the first spoken
 *   packet, which plays out at once instead of queueing behind 20-40 ms of buffered silence: press-to-sound
 *   p50 66 -> 53 ms (median of four fresh pairs each). It also spares an idle mesh's traffic and CPU.
 * - `a=ptime:10`: 10 ms frames instead of 20, so the first frame leaves sooner: p50 59 -> 48 ms on top of
 *   DTX (four pairs each). It costs about 16 kbit/s of packet headers while talking, nothing when silent.
 * - Both, with the jitter buffer minimum below: 0.59 to 0.65 of the defaults' press-to-sound in the bench's
 *   runs (docs/benchmarks.md); DTX alone 0.83, 10 ms frames alone 0.82 in the same run.
 * - `useinbandfec=1` stays as Chromium offers it: no delay, and a lost packet is covered.
 */

export interface OpusSettings {
  /** Discontinuous transmission: next to nothing is sent while the track is silent. */
  usedtx?: boolean;
  /** In-band forward error correction. */
  useinbandfec?: boolean;
  /** Frame length asked for, ms (`a=ptime`). */
  ptime?: number;
}

/**
 * The jitter buffer minimum the room sets on each audio receiver (peer.ts: jitterBufferTarget), ms. With
 * DTX, setting it made the first words play out sooner in the bench's bare pair (p50 42.6 -> 37.7,
 * 45.4 -> 35.5 and 38.6 -> 37.0 ms in three runs; 1, 10 and 20 ms gave about the same); without DTX it
 * changed nothing (1.03x). It is a minimum, never a cap: 10 ms (one frame) stays under the browser's own
 * target (about 20 ms on a quiet link), and 0 is avoided (choppy audio is reported with it).
 */
export const JITTER_BUFFER_TARGET_MS = 10;

export const PUSH_TO_TALK_OPUS: OpusSettings = { usedtx: true, useinbandfec: true, ptime: 10 };

const EOL = '\r\n';

/** The payload types of Opus in one media section. */
function opusPayloadTypes(section: string[]): Set<string> {
  const types = new Set<string>();
  for (const line of section) {
    const match = /^a=rtpmap:(\d+) opus\/48000/i.exec(line);
    if (match) types.add(match[1]);
  }
  return types;
}

function withFmtp(parameters: string, settings: OpusSettings): string {
  const wanted: Record<string, string> = {};
  if (settings.usedtx !== undefined) wanted.usedtx = settings.usedtx ? '1' : '0';
  if (settings.useinbandfec !== undefined) wanted.useinbandfec = settings.useinbandfec ? '1' : '0';
  const parts = parameters
    .split(';')
    .map((parameter) => parameter.trim())
    .filter((parameter) => parameter !== '')
    .map((parameter) => {
      const key = parameter.split('=')[0].toLowerCase();
      if (!(key in wanted)) return parameter;
      const value = wanted[key];
      delete wanted[key];
      return `${key}=${value}`;
    });
  return [...parts, ...Object.entries(wanted).map(([key, value]) => `${key}=${value}`)].join(';');
}

/** One audio media section with Opus: its fmtp lines carry the settings, and `a=ptime` follows them. */
function applyToSection(section: string[], settings: OpusSettings): string[] {
  const types = opusPayloadTypes(section);
  if (types.size === 0) return section;
  const withFmtpLine = new Set(
    section.map((line) => /^a=fmtp:(\d+) /i.exec(line)?.[1]).filter((type) => type !== undefined && types.has(type)),
  );
  const lines: string[] = [];
  let afterOpus = -1;
  for (const line of section) {
    if (settings.ptime !== undefined && /^a=ptime:/i.test(line)) continue;
    const fmtp = /^a=fmtp:(\d+) (.*)$/i.exec(line);
    if (fmtp && types.has(fmtp[1])) {
      lines.push(`a=fmtp:${fmtp[1]} ${withFmtp(fmtp[2], settings)}`);
      afterOpus = lines.length;
      continue;
    }
    lines.push(line);
    const rtpmap = /^a=rtpmap:(\d+) /i.exec(line);
    if (rtpmap && types.has(rtpmap[1])) {
      // An Opus without parameters gets an fmtp line of its own.
      if (!withFmtpLine.has(rtpmap[1])) lines.push(`a=fmtp:${rtpmap[1]} ${withFmtp('', settings)}`);
      afterOpus = lines.length;
    }
  }
  if (settings.ptime !== undefined) lines.splice(afterOpus, 0, `a=ptime:${settings.ptime}`);
  return lines;
}

/**
 * The description with `settings` in every audio section that offers Opus; anything else (video, data,
 * a description without Opus) is returned as it came.
 */
export function applyOpusSettings(sdp: string, settings: OpusSettings = PUSH_TO_TALK_OPUS): string {
  const eol = sdp.includes(EOL) ? EOL : '\n';
  const trailing = sdp.endsWith(eol);
  const lines = (trailing ? sdp.slice(0, -eol.length) : sdp).split(eol);
  const sections: string[][] = [[]];
  for (const line of lines) {
    if (line.startsWith('m=')) sections.push([]);
    sections[sections.length - 1].push(line);
  }
  const out = sections.flatMap((section) =>
    section[0]?.startsWith('m=audio') ? applyToSection(section, settings) : section,
  );
  return out.join(eol) + (trailing ? eol : '');
}
