/**
 * The SIP gateway's pieces on their own (issue 51): the digest check (MD5 and SHA-256, fresh, stale and forged
 * nonces), the SDP offer read and the answer written, RTP and G.711 (a tone encoded and measured again, RFC 4733
 * keys), and voice activity's attack, hang and "let go first" after the floor was taken back.
 */
import { createHash } from 'node:crypto';
import { Grammar } from 'sip.js';
import { describe, expect, it } from 'vitest';
import { digestAuthority, NONCE_TTL_MS, readCredentials } from '../src/sip/digest.ts';
import { G711OpusBridge } from '../src/sip/g711-opus.ts';
import { busyTone, encodeG711, g711Level, readRtp, readTelephoneEvent, writeRtp } from '../src/sip/rtp.ts';
import { OfferRefused, readOffer, writeAnswer } from '../src/sip/sdp.ts';
import { voiceActivity } from '../src/sip/voice-activity.ts';

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('SIP digest', () => {
  const login = 'radio-quai';
  const secret = 'S3cretOfTheGateway';
  const hashes = { ha1Md5: md5(`${login}:talkgroup:${secret}`), ha1Sha256: sha256(`${login}:talkgroup:${secret}`) };

  const uri = 'sip:1001@127.0.0.1:5060';
  const request = (method: string, ruri = uri) => ({ method, ruri: Grammar.URIParse(ruri) });
  function answer(
    challenge: string,
    algorithm: 'MD5' | 'SHA-256',
    password = secret,
    realm = 'talkgroup',
    nc = '00000001',
    method = 'INVITE',
  ) {
    const nonce = /nonce="([^"]+)"/.exec(challenge)?.[1] ?? '';
    const hash = algorithm === 'MD5' ? md5 : sha256;
    const ha1 = hash(`${login}:${realm}:${password}`);
    const response = hash(`${ha1}:${nonce}:${nc}:abc:auth:${hash(`${method}:${uri}`)}`);
    return `Digest username="${login}", realm="${realm}", nonce="${nonce}", uri="${uri}", response="${response}", algorithm=${algorithm}, cnonce="abc", qop=auth, nc=${nc}`;
  }

  it('challenges with MD5 and checks an answer in MD5 or SHA-256 against the stored hashes', () => {
    const authority = digestAuthority('talkgroup');
    const [challenge] = authority.challenge();
    expect(challenge).toMatch(/^Digest realm="talkgroup", nonce="[^"]+", algorithm=MD5, qop="auth"$/);
    for (const [index, algorithm] of (['MD5', 'SHA-256'] as const).entries()) {
      const credentials = readCredentials(answer(challenge, algorithm, secret, 'talkgroup', `0000000${index + 1}`));
      expect(credentials?.username).toBe(login);
      if (!credentials) throw new Error('unread');
      expect(authority.verify(credentials, request('INVITE'), hashes)).toBe('ok');
      // The same answer for another method, a wrong secret or another realm: wrong.
      expect(authority.verify(credentials, request('REGISTER'), hashes)).toBe('wrong');
      const wrong = readCredentials(answer(challenge, algorithm, 'not-it'));
      if (wrong) expect(authority.verify(wrong, request('INVITE'), hashes)).toBe('wrong');
    }
    const otherRealm = readCredentials(answer(challenge, 'MD5', secret, 'elsewhere'));
    if (otherRealm) expect(authority.verify(otherRealm, request('INVITE'), hashes)).toBe('wrong');
  });

  it('takes a nonce and nc pair once, for its Request-URI only, and a nonce for 60 s (issue 57)', () => {
    const authority = digestAuthority('talkgroup');
    const [challenge] = authority.challenge();
    const first = readCredentials(answer(challenge, 'MD5'));
    if (!first) throw new Error('unread');
    // Sent for another channel's number (a new Call-ID and Request-URI): wrong, and it takes nothing.
    expect(authority.verify(first, request('INVITE', 'sip:1002@127.0.0.1:5060'), hashes)).toBe('wrong');
    expect(authority.verify(first, request('INVITE', 'sip:1001@127.0.0.1:5070'), hashes)).toBe('wrong');
    expect(authority.verify(first, request('INVITE', 'sip:1001@127.0.0.1'), hashes)).toBe('ok');
    // The same answer again: a replay.
    expect(authority.verify(first, request('INVITE'), hashes)).toBe('replayed');
    // The gateway's next request on the same nonce counts on: a new pair, taken.
    const next = readCredentials(answer(challenge, 'MD5', secret, 'talkgroup', '00000002'));
    if (!next) throw new Error('unread');
    expect(authority.verify(next, request('INVITE'), hashes)).toBe('ok');
    // At 60 s and a little more, the nonce is stale: a right answer is challenged again, not taken.
    const third = readCredentials(answer(challenge, 'MD5', secret, 'talkgroup', '00000003'));
    if (!third) throw new Error('unread');
    expect(authority.verify(third, request('INVITE'), hashes, Date.now() + NONCE_TTL_MS + 1000)).toBe('stale');
    expect(NONCE_TTL_MS).toBeLessThanOrEqual(60_000);
  });

  it('takes a right answer to an old nonce as stale, and a nonce it did not sign as wrong', () => {
    const key = Buffer.alloc(32, 7);
    const authority = digestAuthority('talkgroup', key);
    const realNow = Date.now;
    try {
      Date.now = () => realNow() - 10 * 60_000;
      const [old] = authority.challenge();
      Date.now = realNow;
      const credentials = readCredentials(answer(old, 'MD5'));
      if (!credentials) throw new Error('unread');
      expect(authority.verify(credentials, request('INVITE'), hashes)).toBe('stale');
    } finally {
      Date.now = realNow;
    }
    const [fresh] = digestAuthority('talkgroup').challenge();
    const forged = readCredentials(answer(fresh, 'MD5'));
    if (!forged) throw new Error('unread');
    expect(authority.verify(forged, request('INVITE'), hashes)).toBe('wrong');
    expect(readCredentials('Basic cmFkaW86eA==')).toBeUndefined();
    expect(readCredentials('Digest username="x"')).toBeUndefined();
  });
});

describe('SDP', () => {
  const offer = (payloads: string, lines: string[], ip = '192.0.2.7') =>
    [
      'v=0',
      `o=- 1 1 IN IP4 ${ip}`,
      's=-',
      `c=IN IP4 ${ip}`,
      't=0 0',
      `m=audio 40000 RTP/AVP ${payloads}`,
      ...lines,
      'a=sendrecv',
      '',
    ].join('\r\n');

  it('chooses PCMU, then PCMA, then Opus, with telephone events at the codec rate, and answers them', () => {
    const read = readOffer(
      offer('96 8 0 101', [
        'a=rtpmap:96 opus/48000/2',
        'a=rtpmap:8 PCMA/8000',
        'a=rtpmap:0 PCMU/8000',
        'a=rtpmap:101 telephone-event/8000',
      ]),
    );
    expect(read).toEqual({
      ip: '192.0.2.7',
      port: 40000,
      codec: 'pcmu',
      payloadType: 0,
      eventPt: 101,
      direction: 'sendrecv',
    });
    expect(readOffer(offer('8', [])).codec).toBe('pcma');
    const opus = readOffer(offer('111 110', ['a=rtpmap:111 opus/48000/2', 'a=rtpmap:110 telephone-event/48000']));
    expect(opus).toMatchObject({ codec: 'opus', payloadType: 111, eventPt: 110 });
    const answer = writeAnswer(read, { ip: '198.51.100.1', port: 30002 }, 42);
    expect(answer).toContain('c=IN IP4 198.51.100.1');
    expect(answer).toContain('m=audio 30002 RTP/AVP 0 101');
    expect(answer).toContain('a=rtpmap:0 PCMU/8000');
    expect(answer).toContain('a=fmtp:101 0-15');
    expect(answer).toContain('a=sendrecv');
  });

  it('refuses an offer without a codec it speaks, or without audio', () => {
    expect(() => readOffer(offer('9', ['a=rtpmap:9 G722/8000']))).toThrow(OfferRefused);
    expect(() => readOffer('v=0\r\no=- 1 1 IN IP4 1.2.3.4\r\ns=-\r\nt=0 0\r\n')).toThrow(OfferRefused);
  });
});

describe('RTP and G.711', () => {
  it('writes and reads a packet, and measures a G.711 tone as loud as it was written', () => {
    for (const codec of ['pcmu', 'pcma'] as const) {
      const samples = Float32Array.from({ length: 160 }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 1000 * i) / 8000));
      const payload = encodeG711(codec, samples);
      const packet = readRtp(
        writeRtp({ payloadType: 0, marker: true, sequence: 65535, timestamp: 2 ** 32 - 1, ssrc: 7, payload }),
      );
      expect(packet).toMatchObject({ payloadType: 0, marker: true, sequence: 65535, timestamp: 2 ** 32 - 1, ssrc: 7 });
      // A sine of 0.5 has an RMS of 0.354; G.711 keeps it within a few percent.
      expect(g711Level(codec, packet?.payload ?? Buffer.alloc(0))).toBeCloseTo(0.354, 1);
      expect(g711Level(codec, encodeG711(codec, new Float32Array(160)))).toBeLessThan(0.001);
      const tone = busyTone(codec);
      expect(tone).toHaveLength(75);
      expect(g711Level(codec, tone[0])).toBeGreaterThan(0.1);
      expect(g711Level(codec, tone[13])).toBeLessThan(0.001);
    }
    expect(readRtp(Buffer.from([0x80, 0xc8, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
    expect(readTelephoneEvent(Buffer.from([10, 0x80, 0, 160]))).toEqual({ key: '*', end: true });
    expect(readTelephoneEvent(Buffer.from([11, 0x00, 0, 160]))).toEqual({ key: '#', end: false });
  });
});

describe('voice activity', () => {
  it('presses after the attack time of voice and releases after the hang time of quiet', () => {
    const vad = voiceActivity({ attackMs: 400, hangMs: 1500 });
    const changes: Array<[number, string]> = [];
    const run = (from: number, to: number, voiced: boolean) => {
      for (let t = from; t < to; t += 20) {
        const change = vad.frame(voiced, t);
        if (change) changes.push([t, change]);
      }
    };
    run(0, 100, true); // a click: not a transmission
    run(100, 1000, false);
    run(1000, 3000, true);
    run(3000, 5000, false);
    expect(changes).toEqual([
      [1400, 'press'],
      [4480, 'release'],
    ]);
    // Without packets, the hang time is counted by the clock.
    run(6000, 6500, true);
    expect(vad.talking).toBe(true);
    expect(vad.tick(7000)).toBeUndefined();
    expect(vad.tick(8000)).toBe('release');
  });

  it('after the floor was taken back, asks again only once the voice paused for the hang time', () => {
    const vad = voiceActivity({ attackMs: 400, hangMs: 1500 });
    for (let t = 0; t <= 400; t += 20) vad.frame(true, t);
    expect(vad.talking).toBe(true);
    vad.reset();
    // The voice goes on: no new press.
    for (let t = 420; t < 3000; t += 20) expect(vad.frame(true, t)).toBeUndefined();
    // A pause of the hang time, then voice again: pressed after the attack time.
    expect(vad.tick(4500)).toBeUndefined();
    let pressed: number | undefined;
    for (let t = 4600; t < 5200 && !pressed; t += 20) if (vad.frame(true, t) === 'press') pressed = t;
    expect(pressed).toBe(5000);
  });
});

describe('G.711 to Opus and back', () => {
  it("keeps a tone's level through libopus at 8 kHz, for many calls at once (the module's memory grows under them)", () => {
    const bridges = Array.from({ length: 300 }, () => new G711OpusBridge('pcmu'));
    try {
      const samples = Float32Array.from({ length: 240 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 1000 * i) / 8000));
      const frame = encodeG711('pcmu', samples);
      const [first, last] = [bridges[0], bridges.at(-1) as G711OpusBridge];
      let back: Buffer = Buffer.alloc(0);
      for (let i = 0; i < 30; i++) {
        // A 30 ms packet (240 samples) completes one 20 ms frame, then another every second packet.
        for (const bridge of [first, last]) for (const packet of bridge.toOpus(frame)) back = bridge.toG711(packet);
      }
      expect(back.length).toBe(160);
      // 0.3 of full scale is an RMS of 0.212: libopus at 8 kHz and G.711 keep it within about a dB.
      expect(g711Level('pcmu', back)).toBeGreaterThan(0.19);
      expect(g711Level('pcmu', back)).toBeLessThan(0.24);
      expect(first.toG711(Buffer.from([0xff, 0xff, 0xff]))).toBeInstanceOf(Buffer);
    } finally {
      for (const bridge of bridges) bridge.close();
    }
  });
});
