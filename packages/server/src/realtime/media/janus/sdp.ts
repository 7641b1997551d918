/**
 * What the browser is asked to send to the AudioBridge, written into Janus's answer before the browser sees
 * it (in SDP these are the receiver's wishes, which the browser's encoder follows):
 * - `usedtx=1`: while the button is up the browser's track is silent, and Opus then sends a packet every
 *   400 ms instead of 50 a second. The participant's queue in the AudioBridge drains instead of holding
 *   PREBUFFER_PACKETS of silence in front of the first spoken packet, which is mixed at the next tick: the
 *   prebuffering delay is gone from press-to-sound (bench:media), and an idle room costs nearly nothing.
 * - `a=ptime:20`: the AudioBridge mixes 20 ms frames and takes one packet per participant each tick
 *   (janus_audiobridge.c, OPUS_SAMPLES), so 10 ms packets would be half lost: the browser must not send the
 *   10 ms frames the mesh uses (opusSettings.ts in the web app).
 */
const EOL = '\r\n';

export function tuneAnswer(sdp: string): string {
  const eol = sdp.includes(EOL) ? EOL : '\n';
  const lines = sdp.split(eol);
  const opus = new Set<string>();
  for (const line of lines) {
    const match = /^a=rtpmap:(\d+) opus\/48000/i.exec(line);
    if (match) opus.add(match[1]);
  }
  if (opus.size === 0) return sdp;
  const out: string[] = [];
  const withFmtp = new Set<string>();
  for (const line of lines) {
    if (/^a=ptime:/i.test(line)) continue;
    const fmtp = /^a=fmtp:(\d+) (.*)$/i.exec(line);
    if (fmtp && opus.has(fmtp[1])) {
      withFmtp.add(fmtp[1]);
      const kept = fmtp[2].split(';').filter((parameter) => !/^\s*usedtx=/i.test(parameter));
      out.push(`a=fmtp:${fmtp[1]} ${[...kept, 'usedtx=1'].join(';')}`);
      continue;
    }
    out.push(line);
  }
  // An Opus without parameters gets an fmtp line of its own, and every audio section the frame length.
  const result: string[] = [];
  for (const line of out) {
    result.push(line);
    const rtpmap = /^a=rtpmap:(\d+) /i.exec(line);
    if (rtpmap && opus.has(rtpmap[1])) {
      if (!withFmtp.has(rtpmap[1])) result.push(`a=fmtp:${rtpmap[1]} usedtx=1`);
      result.push('a=ptime:20');
    }
  }
  return result.join(eol);
}
