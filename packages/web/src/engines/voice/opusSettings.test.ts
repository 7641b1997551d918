/**
 * The room asks for Opus with DTX and 10 ms frames in its own descriptions; everything else in them stays
 * as the browser wrote it. Two browsers still talking with these descriptions is e2e/room-voice.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { applyOpusSettings, PUSH_TO_TALK_OPUS } from './opusSettings.ts';

/** An offer as Chromium 156 writes it (audio and video; trimmed of candidates and fingerprints). */
const CHROMIUM_OFFER = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'a=group:BUNDLE 0 1',
  'a=extmap-allow-mixed',
  'a=msid-semantic: WMS stream',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63 9 0 8 13 110 126',
  'c=IN IP4 0.0.0.0',
  'a=rtcp:9 IN IP4 0.0.0.0',
  'a=mid:0',
  'a=extmap:1 urn:ietf:params:rtp-hdrext:ssrc-audio-level',
  'a=sendrecv',
  'a=rtcp-mux',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
  'a=fmtp:63 111/111',
  'a=rtpmap:9 G722/8000',
  'a=rtpmap:0 PCMU/8000',
  'a=rtpmap:8 PCMA/8000',
  'a=rtpmap:13 CN/8000',
  'a=rtpmap:110 telephone-event/48000',
  'a=rtpmap:126 telephone-event/8000',
  'a=ssrc:1001 cname:abc',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
  'c=IN IP4 0.0.0.0',
  'a=mid:1',
  'a=rtpmap:96 VP8/90000',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  '',
].join('\r\n');

const lines = (sdp: string) => sdp.split('\r\n');
const audioSection = (sdp: string) => {
  const all = lines(sdp);
  return all.slice(
    all.findIndex((line) => line.startsWith('m=audio')),
    all.findIndex((line) => line.startsWith('m=video')),
  );
};

describe('applyOpusSettings', () => {
  it("asks for DTX and keeps Chromium's own Opus parameters", () => {
    const sdp = applyOpusSettings(CHROMIUM_OFFER);
    expect(lines(sdp)).toContain('a=fmtp:111 minptime=10;useinbandfec=1;usedtx=1');
  });

  it('asks for 10 ms frames once, in the audio section, right after the Opus parameters', () => {
    const audio = audioSection(applyOpusSettings(CHROMIUM_OFFER));
    expect(audio.filter((line) => line.startsWith('a=ptime:'))).toEqual(['a=ptime:10']);
    expect(audio[audio.indexOf('a=ptime:10') - 1]).toMatch(/^a=fmtp:111 /);
  });

  it('changes nothing but the Opus lines and the frame length', () => {
    const before = lines(CHROMIUM_OFFER);
    const after = lines(applyOpusSettings(CHROMIUM_OFFER));
    expect(after.filter((line) => !line.startsWith('a=fmtp:111') && line !== 'a=ptime:10')).toEqual(
      before.filter((line) => !line.startsWith('a=fmtp:111')),
    );
    expect(after.at(-1)).toBe('');
  });

  it('overrides a value already there rather than adding a second one', () => {
    const sdp = CHROMIUM_OFFER.replace(
      'a=fmtp:111 minptime=10;useinbandfec=1',
      'a=fmtp:111 usedtx=0;minptime=10',
    ).replace('a=rtcp-mux', 'a=rtcp-mux\r\na=ptime:20');
    const audio = audioSection(applyOpusSettings(sdp, { usedtx: true, ptime: 10 }));
    expect(audio).toContain('a=fmtp:111 usedtx=1;minptime=10');
    expect(audio.filter((line) => line.startsWith('a=ptime:'))).toEqual(['a=ptime:10']);
  });

  it('gives an Opus without parameters an fmtp line', () => {
    const sdp = CHROMIUM_OFFER.replace('a=fmtp:111 minptime=10;useinbandfec=1\r\n', '');
    const audio = audioSection(applyOpusSettings(sdp, PUSH_TO_TALK_OPUS));
    expect(audio[audio.indexOf('a=rtpmap:111 opus/48000/2') + 1]).toBe('a=fmtp:111 usedtx=1;useinbandfec=1');
  });

  it('leaves a description without Opus, and the video section, as they came', () => {
    const noOpus = CHROMIUM_OFFER.replace(/a=(rtpmap|fmtp|rtcp-fb):111 [^\r]*\r\n/g, '');
    expect(applyOpusSettings(noOpus)).toBe(noOpus);
    const video = (sdp: string) => sdp.slice(sdp.indexOf('m=video'));
    expect(video(applyOpusSettings(CHROMIUM_OFFER))).toBe(video(CHROMIUM_OFFER));
  });

  it('keeps the line endings of the description', () => {
    const unix = CHROMIUM_OFFER.replaceAll('\r\n', '\n');
    const sdp = applyOpusSettings(unix);
    expect(sdp).not.toContain('\r');
    expect(sdp.split('\n')).toContain('a=ptime:10');
  });
});
