/**
 * The SIP fuzzer (issue 57, item 7): nothing anyone sends to the SIP port or to a call's relay port ends the
 * server. The server runs as `npm start` runs it, in a process of its own (process-harness.ts), with Debian's
 * Janus behind it, so that "the process keeps running" is what is checked: an exception thrown out of a listener
 * ends that process, and the test sees it exit.
 *
 * - Over UDP: a few thousand mutations (sip-mutations.ts) of real INVITE, REGISTER, ACK, BYE, OPTIONS, CANCEL and
 *   INFO requests and of responses: truncated, oversized (datagrams up to ~60 KB), binary, NUL bytes and unicode,
 *   headers removed, doubled or garbage (CSeq `x`, Via without branch, Content-Length negative, huge, not a number
 *   or wrong), bad start lines and Request-URIs, thousands of header lines, offers with impossible ports and
 *   addresses; the issue's `SIP/2.0 200 OK\r\nCSeq: x\r\n\r\n` first. Sent in batches, each followed by an
 *   OPTIONS that must be answered (so that the fuzzer waits for the server, and measures it, not its buffers).
 * - Over TCP: hundreds of those, several per connection, split across writes, connections cut mid-message,
 *   messages past 64 KB.
 * - Authenticated INVITEs (a real digest answer to a real challenge) whose offer is mutated: port 0, 99999,
 *   65536, -1, not a number, a hostname, no m= line, a huge payload list...: each is answered, and an answered
 *   call is hung up.
 * - A live call's relay port: RTP-shaped datagrams (oversized, unknown payload types, short telephone events,
 *   lengths past the end) and random ones.
 * - A second server at the default SIP_REQUESTS_PER_MINUTE (120): the rate limit's 503 path gets the mutations
 *   too (the first server's limit is high, so that the fuzz reaches the parser and the call code, not the 503).
 * - After each part the process is alive, answers GET /healthz and an OPTIONS over UDP; at the end Debian's
 *   baresip dials a channel, is answered, gets the channel's audio and hangs up cleanly.
 *
 * The inputs come from a seeded PRNG: SIP_FUZZ_SEED=<number> replays a run, SIP_FUZZ_SEED=random tries a new one;
 * an input that ends the process is kept, the process started again (SIP_FUZZ_RESTARTS times a part) and the batch
 * sent again case by case, so that a failure names the seed and each input that crashed it, with its stack.
 * SIP_FUZZ_UDP, SIP_FUZZ_TCP (connections), SIP_FUZZ_RTP and SIP_FUZZ_DEFAULT_RATE set how many of each.
 *
 * The inputs: sip-mutations.ts (the PRNG, the base messages), sip-mutators.ts, sip-offer-mutations.ts and
 * rtp-mutations.ts; the processes and their crashes: sip-fuzz-harness.ts; the probe, the raw UDP client and the
 * authenticated call: sip-fuzz-client.ts; the UDP batches and the TCP connections: sip-fuzz-senders.ts.
 */
import dgram from 'node:dgram';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baresipAvailable, startBaresip } from './baresip.ts';
import { type TestJanus, testJanus } from './janus-harness.ts';
import { exited, outputOf, post } from './process-harness.ts';
import { offer } from './raw-sip.ts';
import { rtpCase } from './rtp-mutations.ts';
import { assertAnswers, authenticatedCall, PROBE_HOST, RawUdp } from './sip-fuzz-client.ts';
import {
  BATCH_CASES,
  FUZZ_LOGIN,
  noCrashes,
  recover,
  revive,
  SEED,
  signIn,
  startVictim,
  type Victim,
  WAIT_MS,
  whileAlive,
} from './sip-fuzz-harness.ts';
import { fuzzTcp, fuzzUdp, tcpOptions } from './sip-fuzz-senders.ts';
import { Prng } from './sip-mutations.ts';
import { SDP_CASE_COUNT, sdpCase } from './sip-offer-mutations.ts';

const UDP_CASES = Number(process.env.SIP_FUZZ_UDP ?? 2000);
const TCP_CONNECTIONS = Number(process.env.SIP_FUZZ_TCP ?? 120);
const RTP_CASES = Number(process.env.SIP_FUZZ_RTP ?? 1000);
const DEFAULT_RATE_CASES = Number(process.env.SIP_FUZZ_DEFAULT_RATE ?? 400);
/** Each part's bound: its waits are bounded, this is for a machine far busier than CI. */
const PART_MS = 240_000;
const PHONE_LOGIN = 'radio-quai';

const available = baresipAvailable();

describe.skipIf(!available)('the SIP fuzzer', () => {
  let janus: TestJanus;
  let victim: Victim;
  let admin: string;
  let number: string;
  let channelId: number;
  let fuzzSecret: string;
  let phoneSecret: string;
  const cleanups: Array<() => unknown> = [];

  beforeAll(async () => {
    janus = await testJanus();
    cleanups.push(() => janus.stop());
    victim = await startVictim('fuzzed', {
      JANUS_URL: janus.url,
      JANUS_API_SECRET: janus.secret,
      SIP_REQUESTS_PER_MINUTE: '1000000',
    });
    cleanups.push(() => {
      victim.server.child.kill('SIGKILL');
      rmSync(victim.dir, { recursive: true, force: true });
    });
    admin = await signIn(victim);
    const channel = await post(victim.server.base, '/user/api/createChannel', { channelName: 'alpha' }, admin);
    expect(channel.status).toBe(200);
    channelId = channel.body.res.id;
    number = String(1000 + channelId);
    const gateway = async (name: string, login: string) => {
      const made = await post(
        victim.server.base,
        '/user/api/createGateway',
        // Not quiet between: the channel's silence goes to the gateway at once, so a call's media flows.
        { name, login, channelIds: [channelId], quietBetween: false },
        admin,
      );
      expect(made.status).toBe(200);
      return made.body.secret as string;
    };
    fuzzSecret = await gateway('Radio Fuzz', FUZZ_LOGIN);
    phoneSecret = await gateway('Radio Quai', PHONE_LOGIN);
    console.log(`SIP fuzz seed ${SEED} (SIP_FUZZ_SEED=${SEED} replays it)`);
  });

  beforeEach(async () => {
    if (victim) await revive(victim);
  });

  afterAll(async () => {
    const faults = victim ? outputOf(victim.server.child).match(/a fault stayed local[^"]*/g) : null;
    if (faults?.length) console.log(`faults the fuzzed server kept local:\n${[...new Set(faults)].join('\n')}`);
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'answers after thousands of mutated requests and responses over UDP',
    async () => {
      const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
      try {
        const received = await fuzzUdp(victim, new Prng(SEED), UDP_CASES, number);
        noCrashes(victim, 'UDP');
        // The requests it could read are answered (400, 401, 481, 503...): the fuzz reached the SIP stack.
        expect(received).toBeGreaterThan(UDP_CASES / 10);
        expect(await assertAnswers(victim, probe, undefined, true)).toBe(200);
      } finally {
        probe.close();
      }
    },
    PART_MS,
  );

  it(
    'answers after hundreds of TCP connections of mutated messages, split across writes and cut',
    async () => {
      await fuzzTcp(victim, new Prng(SEED + 1), TCP_CONNECTIONS, number);
      noCrashes(victim, 'TCP');
      // A well-formed OPTIONS on a new connection is still read and answered over TCP.
      expect(await tcpOptions(victim)).toMatch(/^SIP\/2\.0 200 /);
    },
    PART_MS,
  );

  it(
    'answers every authenticated INVITE whose offer is mutated, and hangs up those it answered',
    async () => {
      const sip = await RawUdp.open(victim.sipPort);
      const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
      const media = dgram.createSocket('udp4');
      media.on('message', () => {});
      await new Promise<void>((resolve) => media.bind(0, '127.0.0.1', resolve));
      const rng = new Prng(SEED + 2);
      const statuses = new Map<string, number[]>();
      let current = '';
      const context = () => `\nthe offer (seed ${SEED}): ${current}`;
      try {
        for (let index = 0; index < SDP_CASE_COUNT + 12; index++) {
          const { klass, body } = sdpCase(rng, '127.0.0.1', media.address().port, index);
          current = `[${klass}] ${JSON.stringify(body.length > 600 ? `${body.slice(0, 600)}...` : body)}`;
          let status = 0;
          try {
            const call = await authenticatedCall(victim, sip, number, fuzzSecret, body, context);
            status = call.status;
            if (call.status === 200) {
              // Its media flows a moment (the relay sends the channel's silence to the offer's address) before the BYE.
              await new Promise((resolve) => setTimeout(resolve, 100));
              expect(await call.bye()).toBe(200);
            }
            await assertAnswers(victim, probe, context);
          } catch (error) {
            await recover(victim, error, 'authenticated INVITE', current);
          }
          statuses.set(klass, [...(statuses.get(klass) ?? []), status]);
        }
        console.log(
          `authenticated INVITEs with mutated offers, by class: ${[...statuses].map(([klass, codes]) => `${klass} ${[...new Set(codes)].join('/')}`).join('; ')}`,
        );
        // An offer whose media port cannot be one (issue 57: 1-65535; 0 refuses the stream) is never answered 200.
        noCrashes(victim, 'authenticated INVITE');
        for (const klass of ['sdp port 99999', 'sdp port 65536', 'sdp port -1', 'sdp port 0', 'sdp no m line'])
          expect(statuses.get(klass)?.filter((status) => status < 300) ?? [], klass).toEqual([]);
      } finally {
        sip.close();
        probe.close();
        media.close();
      }
    },
    PART_MS,
  );

  it(
    "answers after RTP-shaped and random datagrams on a live call's relay port, and ends that call on its BYE",
    async () => {
      const sip = await RawUdp.open(victim.sipPort);
      const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
      const media = dgram.createSocket('udp4');
      const stranger = dgram.createSocket('udp4');
      let heard = 0;
      media.on('message', () => {
        heard++;
      });
      stranger.on('message', () => {});
      await new Promise<void>((resolve) => media.bind(0, '127.0.0.1', resolve));
      await new Promise<void>((resolve) => stranger.bind(0, '127.0.0.1', resolve));
      const rng = new Prng(SEED + 3);
      let batch: string[] = [];
      const context = () => `\nthe datagrams sent to the relay just before it (seed ${SEED}):\n${batch.join('\n')}`;
      let bye: (() => Promise<number>) | undefined;
      try {
        const offerText = offer('127.0.0.1', media.address().port).text;
        const call = await authenticatedCall(victim, sip, number, fuzzSecret, offerText, context);
        expect(call.status).toBe(200);
        bye = call.bye;
        const relayPort = Number(/m=audio (\d+)/.exec(String(call.answer.body ?? ''))?.[1]);
        expect(relayPort).toBeGreaterThan(0);
        // The call is up: it sends the relay PCMU silence, 20 ms frames, until the channel's silence comes back.
        let sequence = 0;
        const frame = () => {
          const packet = Buffer.alloc(12 + 160, 0xff);
          packet[0] = 0x80;
          packet[1] = 0;
          packet.writeUInt16BE(sequence & 0xffff, 2);
          packet.writeUInt32BE(sequence * 160, 4);
          packet.writeUInt32BE(0x5eed, 8);
          sequence++;
          media.send(packet, relayPort, '127.0.0.1');
        };
        const untilHeard = async (what: string) => {
          const before = heard;
          const talking = setInterval(frame, 20);
          try {
            await whileAlive(victim, expect.poll(() => heard, { timeout: WAIT_MS }).toBeGreaterThan(before + 5), what);
          } finally {
            clearInterval(talking);
          }
        };
        await untilHeard('the relay sending the channel to the call');
        for (let index = 0; index < RTP_CASES; index++) {
          const { klass, bytes } = rtpCase(rng);
          // Mostly from the call's own address and port (what the relay accepts), now and then from another port.
          const from = rng.chance(0.85) ? media : stranger;
          batch.push(`#${index} [${klass}] ${bytes.length} bytes: ${bytes.subarray(0, 48).toString('hex')}`);
          await new Promise<void>((resolve) => from.send(bytes, relayPort, '127.0.0.1', () => resolve()));
          if (batch.length < BATCH_CASES && index < RTP_CASES - 1) continue;
          try {
            await assertAnswers(victim, probe, context);
          } catch (error) {
            // The call died with the process: what ended it is kept, and this part ends here.
            await recover(victim, error, 'relay port', `one of these datagrams:\n${batch.join('\n')}`);
            bye = undefined;
            noCrashes(victim, 'relay port');
          }
          batch = [];
        }
        // The call lived through it: the relay still sends it the channel, its BYE is answered, and it is gone.
        await untilHeard('the relay sending the channel to the call after the fuzz');
        bye = undefined;
        expect(await call.bye()).toBe(200);
        await expect
          .poll(
            async () =>
              (await post(victim.server.base, '/user/api/listGatewayCalls', { channelId }, admin)).body.res?.length,
            { timeout: WAIT_MS },
          )
          .toBe(0);
      } finally {
        await bye?.().catch(() => {});
        sip.close();
        probe.close();
        media.close();
        stranger.close();
      }
    },
    PART_MS,
  );

  it(
    'answers after the mutations at the default rate limit (120 INVITEs and REGISTERs a minute)',
    async () => {
      const limited = await startVictim('default-rate', {});
      try {
        const probe = await RawUdp.open(limited.sipPort, PROBE_HOST);
        try {
          await fuzzUdp(limited, new Prng(SEED + 4), DEFAULT_RATE_CASES, number);
          noCrashes(limited);
          expect(await assertAnswers(limited, probe, undefined, true)).toBe(200);
        } finally {
          probe.close();
        }
      } finally {
        limited.server.child.kill('SIGKILL');
        await exited(limited.server.child);
        rmSync(limited.dir, { recursive: true, force: true });
      }
    },
    PART_MS,
  );

  it(
    "then a real gateway's call is answered, gets the channel's audio and hangs up cleanly",
    async () => {
      const phone = await startBaresip({
        login: PHONE_LOGIN,
        secret: phoneSecret,
        sipPort: victim.sipPort,
        record: true,
      });
      cleanups.push(() => phone.stop());
      const call = await whileAlive(
        victim,
        phone.dial(number),
        'baresip dialling the channel',
        () => `\n${phone.output().slice(-3000)}`,
      );
      const listed = await post(victim.server.base, '/user/api/listGatewayCalls', { channelId }, admin);
      expect(listed.body.res).toContainEqual(expect.objectContaining({ callId: call.id, gatewayName: 'Radio Quai' }));
      // The relay sends it the channel (silence while nobody talks: not quiet between).
      await whileAlive(victim, phone.recorded(1), 'the channel reaching baresip');
      await whileAlive(victim, phone.hangup(), 'the hang-up');
      await expect
        .poll(
          async () =>
            (await post(victim.server.base, '/user/api/listGatewayCalls', { channelId }, admin)).body.res?.length,
          { timeout: WAIT_MS },
        )
        .toBe(0);
      const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
      try {
        expect(await assertAnswers(victim, probe, undefined, true)).toBe(200);
      } finally {
        probe.close();
      }
    },
    PART_MS,
  );
});
