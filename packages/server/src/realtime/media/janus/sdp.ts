/**
 * What the browser is asked to send to Janus (the VideoRoom, or the AudioBridge), written into Janus's answer
 * before the browser sees it (in SDP these are the receiver's wishes, which the browser's encoder follows):
 * - `usedtx=1`: while the button is up the browser's track is silent, and Opus then sends a packet every
 *   400 ms instead of 50 a second: a listener's jitter buffer holds no silence in front of the first spoken
 *   packet (and a bridge participant's queue drains), so the first word plays out at once; an idle channel
 *   costs nearly nothing.
 * - `useinbandfec=1` (issue 37, mobile networks): the browser's encoder adds in-band FEC, so that a listener's
 *   decoder (or the bridge's) covers a lost packet from the next one, whatever the browser offered.
 * - `a=ptime:20`: the AudioBridge mixes 20 ms frames and takes one packet per participant each tick
 *   (janus_audiobridge.c, OPUS_SAMPLES), so 10 ms packets would be half lost. A publisher's packets go to the
 *   bridge's relay whenever the channel mixes (a patch, a spec client), so publishers send 20 ms frames too,
 *   not the 10 ms frames of the mesh (opusSettings.ts in the web app).
 */
const EOL = '\r\n';
const TUNED = ['useinbandfec=1', 'usedtx=1'];

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
      const kept = fmtp[2].split(';').filter((parameter) => !/^\s*(usedtx|useinbandfec)=/i.test(parameter));
      out.push(`a=fmtp:${fmtp[1]} ${[...kept, ...TUNED].join(';')}`);
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
      if (!withFmtp.has(rtpmap[1])) result.push(`a=fmtp:${rtpmap[1]} ${TUNED.join(';')}`);
      result.push('a=ptime:20');
    }
  }
  return result.join(eol);
}

/** The mid and m-line index of the first audio section of a description (what a publisher forwards). */
export function audioMid(sdp: string): { mid: string; mindex: number } | undefined {
  const sections = sdp.split(/\r?\n(?=m=)/).slice(1);
  for (const [mindex, section] of sections.entries()) {
    if (!section.startsWith('m=audio')) continue;
    const mid = /^a=mid:(\S+)/m.exec(section)?.[1];
    return mid ? { mid, mindex } : undefined;
  }
  return undefined;
}
