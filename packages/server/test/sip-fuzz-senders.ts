/**
 * The SIP fuzzer's senders (sip-fuzz.test.ts): the mutated cases over UDP, in batches each closed by an answered
 * OPTIONS, and over TCP, several per connection, split across writes and cut; a batch that ends the process is sent
 * again case by case to a new one, so that the crash names its input. And the well-formed OPTIONS over TCP that
 * must still be answered after it.
 */
import net from 'node:net';
import { tcpConnection, token } from './raw-sip.ts';
import { assertAnswers, PROBE_HOST, RawUdp } from './sip-fuzz-client.ts';
import { BATCH_BYTES, BATCH_CASES, FUZZ_LOGIN, recover, type Victim, whileAlive } from './sip-fuzz-harness.ts';
import { describeCase, type FuzzCase, Prng, type Target } from './sip-mutations.ts';
import { fuzzCase } from './sip-mutators.ts';

/**
 * The UDP fuzz against one server: `count` cases from `rng`, in batches each closed by an answered OPTIONS. A batch
 * that ends the process is sent again case by case to a new one, so that the crash names its input.
 */
export async function fuzzUdp(victim: Victim, rng: Prng, count: number, number: string): Promise<number> {
  const part = `UDP (${victim.name})`;
  const fuzzer = await RawUdp.open(victim.sipPort);
  const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
  const target: Target = { server: victim.sipPort, local: fuzzer.port, number, login: FUZZ_LOGIN, transport: 'UDP' };
  let batch: Array<[number, FuzzCase]> = [];
  let bytes = 0;
  try {
    for (let index = 0; index < count; index++) {
      const fuzz = fuzzCase(rng, target, index);
      // A datagram carries at most 65,507 bytes over IPv4.
      if (fuzz.bytes.length > 65_000) fuzz.bytes = fuzz.bytes.subarray(0, 65_000);
      batch.push([index, fuzz]);
      bytes += fuzz.bytes.length;
      await fuzzer.send(fuzz.bytes);
      if (batch.length < BATCH_CASES && bytes < BATCH_BYTES && index < count - 1) continue;
      try {
        await assertAnswers(victim, probe);
      } catch (error) {
        await recover(
          victim,
          error,
          part,
          'a batch (its cases sent again one by one, below, while restarts were left)',
        );
        const found = victim.crashes.length;
        for (const [at, one] of batch) {
          await fuzzer.send(one.bytes);
          await assertAnswers(victim, probe).catch((died) => recover(victim, died, part, describeCase(at, one)));
        }
        // Found alone, the batch's line goes; else the batch as a whole is the input.
        if (victim.crashes.length > found) victim.crashes.splice(found - 1, 1);
        else {
          const crash = victim.crashes[found - 1];
          if (crash) crash.input = `the batch together:\n${batch.map(([at, one]) => describeCase(at, one)).join('\n')}`;
        }
      }
      batch = [];
      bytes = 0;
    }
    return fuzzer.received;
  } finally {
    fuzzer.close();
    probe.close();
  }
}

/** One TCP connection: its cases written in pieces, then closed, or cut in the middle of the last one. */
async function fuzzConnection(victim: Victim, rng: Prng, cases: FuzzCase[], cut: boolean): Promise<void> {
  const socket = net.connect(victim.sipPort, '127.0.0.1');
  socket.on('error', () => {});
  socket.on('data', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const connected = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('connect', () => resolve(true))),
    closed.then(() => false),
  ]);
  if (!connected) return;
  const write = (piece: Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) resolve();
      else socket.write(piece, () => resolve());
    });
  try {
    for (const [n, fuzz] of cases.entries()) {
      let bytes = fuzz.bytes;
      if (cut && n === cases.length - 1) bytes = bytes.subarray(0, rng.int(bytes.length));
      // The message in one to four writes, cut anywhere: TCP owes the reader no message boundaries.
      const pieces = rng.between(1, 4);
      let at = 0;
      for (let piece = 1; piece <= pieces && !socket.destroyed; piece++) {
        const end = piece === pieces ? bytes.length : rng.between(at, bytes.length);
        await write(bytes.subarray(at, end));
        at = end;
        if (rng.chance(0.3)) await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (cut) socket.destroy();
    else socket.end();
    // The server closes its side once it has read ours (or before, on a message it will not read).
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
  } finally {
    socket.destroy();
  }
}

export async function fuzzTcp(victim: Victim, rng: Prng, connections: number, number: string): Promise<void> {
  const part = 'TCP';
  const probe = await RawUdp.open(victim.sipPort, PROBE_HOST);
  let index = 0;
  try {
    // A few connections at a time (fewer than the 8 per address a server may allow).
    for (let first = 0; first < connections; first += 4) {
      const sent: Array<[number, FuzzCase]> = [];
      const plans = Array.from({ length: Math.min(4, connections - first) }, () => {
        const cases: FuzzCase[] = [];
        for (let n = rng.between(1, 5); n > 0; n--) {
          // A port the server never sees: only Via and Contact name it.
          const local = 40_000 + rng.int(1000);
          const target: Target = { server: victim.sipPort, local, number, login: FUZZ_LOGIN, transport: 'TCP' };
          const fuzz = fuzzCase(rng, target, index);
          // Now and then a message past the server's 64 KB.
          if (rng.chance(0.03)) fuzz.bytes = Buffer.concat([fuzz.bytes, Buffer.alloc(70_000, 0x61)]);
          sent.push([index++, fuzz]);
          cases.push(fuzz);
        }
        return { cases, cut: rng.chance(0.3), seed: rng.int(2 ** 32) };
      });
      const run = (plan: (typeof plans)[number]) => fuzzConnection(victim, new Prng(plan.seed), plan.cases, plan.cut);
      try {
        await whileAlive(victim, Promise.all(plans.map(run)), 'a group of TCP connections');
        await assertAnswers(victim, probe);
      } catch (error) {
        await recover(
          victim,
          error,
          part,
          'a group of connections (their cases sent again one by one, below, while restarts were left)',
        );
        const found = victim.crashes.length;
        for (const [at, one] of sent) {
          const alone = { cases: [one], cut: false, seed: 1 };
          await whileAlive(victim, run(alone), 'one TCP connection')
            .then(() => assertAnswers(victim, probe))
            .catch((died) => recover(victim, died, part, describeCase(at, one)));
        }
        if (victim.crashes.length > found) victim.crashes.splice(found - 1, 1);
        else {
          const crash = victim.crashes[found - 1];
          if (crash)
            crash.input = `the group together (split and cut):\n${sent.map(([at, one]) => describeCase(at, one)).join('\n')}`;
        }
      }
    }
  } finally {
    probe.close();
  }
}

/** A well-formed OPTIONS on a new TCP connection: the server's answer (its head). */
export async function tcpOptions(victim: Victim): Promise<string> {
  const tcp = await whileAlive(victim, tcpConnection(victim.sipPort), 'a TCP connection');
  try {
    const callId = `tcp-${token()}`;
    const text = [
      `OPTIONS sip:127.0.0.1:${victim.sipPort};transport=tcp SIP/2.0`,
      `Via: SIP/2.0/TCP 127.0.0.1:${tcp.socket.localPort ?? 9};branch=z9hG4bK${token()};rport`,
      'Max-Forwards: 70',
      `From: <sip:${FUZZ_LOGIN}@127.0.0.1>;tag=${token()}`,
      `To: <sip:127.0.0.1:${victim.sipPort}>`,
      `Call-ID: ${callId}`,
      'CSeq: 1 OPTIONS',
      'Content-Length: 0',
      '',
      '',
    ].join('\r\n');
    const answered = new Promise<string>((resolve) =>
      tcp.socket.on('data', () => {
        if (tcp.data().includes('\r\n\r\n')) resolve(tcp.data());
      }),
    );
    tcp.socket.write(text);
    return await whileAlive(victim, answered, 'an OPTIONS over TCP');
  } finally {
    tcp.socket.destroy();
  }
}
