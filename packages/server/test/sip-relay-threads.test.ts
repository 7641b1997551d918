/**
 * The gateways' media relay runs off the main thread (issue 57): a live call's packets keep going both ways while
 * the main thread's event loop is held, and a relay thread that dies ends its own calls (a BYE, a fault counted),
 * never the process; the next call is answered on a new thread.
 *
 * The gateway here is a worker thread of the test's own (plain RTP over node:dgram, counting what comes back),
 * so that holding the test's main thread, which is also the server's, does not hold the gateway too.
 */
import dgram from 'node:dgram';
import { Worker } from 'node:worker_threads';
import { channelNumber } from '@talkgroup/protocol';
import { Core } from 'sip.js';
import { afterEach, describe, expect, it } from 'vitest';
import { baresipAvailable } from './baresip.ts';
import { invite, LOGIN, offer, RawSip, WAIT_MS } from './raw-sip.ts';
import { sipJanusWorld } from './sip-janus-world.ts';

/** A gateway's media on a thread: sends PCMU silence every 20 ms to the relay, counts the packets it gets back. */
const GATEWAY_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const dgram = require('node:dgram');
const received = new Int32Array(workerData.received);
const socket = dgram.createSocket('udp4');
socket.on('message', () => Atomics.add(received, 0, 1));
socket.bind(0, '127.0.0.1', () => parentPort.postMessage(socket.address().port));
parentPort.on('message', (relayPort) => {
  let sequence = 0;
  setInterval(() => {
    const packet = Buffer.alloc(12 + 160, 0xff);
    packet[0] = 0x80;
    packet[1] = 0;
    packet.writeUInt16BE(sequence & 0xffff, 2);
    packet.writeUInt32BE((sequence * 160) >>> 0, 4);
    packet.writeUInt32BE(0x5ca1ab1e, 8);
    sequence++;
    socket.send(packet, relayPort, '127.0.0.1');
  }, 20);
});`;

const HOLD_MS = 5_000;

// Janus is what a call needs to be answered (as in sip-hostile.test.ts).
describe.skipIf(!baresipAvailable())('the SIP relay on threads of its own', () => {
  const world = sipJanusWorld();
  const closing: Array<() => unknown> = [];
  afterEach(async () => {
    for (const close of closing.splice(0)) await close();
  });

  it("keeps a call's packets flowing while the main thread is held, and a relay thread that dies ends its calls, not the server", async () => {
    const made = await world.app.call(
      '/user/api/createGateway',
      { name: 'Radio Quai', login: LOGIN, channelIds: [world.red.id], quietBetween: false, simultaneousCalls: 2 },
      world.admin.token,
    );
    expect(made.status).toBe(200);
    const received = new Int32Array(new SharedArrayBuffer(4));
    const gateway = new Worker(GATEWAY_SOURCE, { eval: true, workerData: { received: received.buffer } });
    closing.push(() => gateway.terminate());
    const mediaPort = await new Promise<number>((resolve) => gateway.once('message', resolve));
    const sip = await RawSip.open(world.app.sip?.port ?? 0);
    closing.push(() => sip.close());
    const number = channelNumber(world.red) as string;

    const call = await invite(sip, number, made.body.secret, offer('127.0.0.1', mediaPort));
    expect(call.answer.statusCode).toBe(200);
    const target = /<([^>]+)>/.exec(call.answer.getHeader('contact') ?? '')?.[1] ?? '';
    sip.send({
      method: 'ACK',
      cseq: 2,
      uri: target,
      callId: call.callId,
      fromTag: call.fromTag,
      toTag: call.answer.toTag,
    });
    gateway.postMessage(Number(/m=audio (\d+)/.exec(String(call.answer.body))?.[1]));

    // Its packets are handled on a relay thread, not on this one (0).
    const relay = world.app.sip?.relayOf(call.callId);
    expect(relay?.threadId).toBeGreaterThan(0);
    expect(world.app.sip?.relayThreads.threadIds()).toContain(relay?.threadId);
    await expect.poll(() => relay?.counts.toJanus ?? 0, { timeout: WAIT_MS }).toBeGreaterThan(10);
    await expect.poll(() => Atomics.load(received, 0), { timeout: WAIT_MS }).toBeGreaterThan(10);

    // The main thread held: the channel still reaches the gateway (Janus's mix through the relay, 50 packets a second).
    // Held until a few have come, for HOLD_MS at most: a loaded machine delivers them later, never while nothing
    // relays them.
    const before = Atomics.load(received, 0);
    const until = performance.now() + HOLD_MS;
    while (performance.now() < until && Atomics.load(received, 0) - before <= 5) {
      // Held on purpose, as a long synchronous piece of work would.
    }
    expect(Atomics.load(received, 0) - before).toBeGreaterThan(5);

    // Its thread dies: the call is hung up (a BYE) and counted as a fault; the server goes on.
    const faultsBefore = world.app.services.faults.counts().rtp_relay;
    await world.app.sip?.relayThreads.kill(relay?.threadId ?? -1);
    await sip.waitFor(
      (message): message is Core.IncomingRequestMessage =>
        message instanceof Core.IncomingRequestMessage && message.method === 'BYE' && message.callId === call.callId,
      'the BYE of the call whose relay thread died',
    );
    await expect.poll(() => world.app.sip?.callIds(), { timeout: WAIT_MS }).not.toContain(call.callId);
    expect(world.app.services.faults.counts().rtp_relay).toBeGreaterThan(faultsBefore);
    expect((await world.app.fastify.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    // The next call is answered on a new thread, and its media flows both ways.
    const media = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => media.bind(0, '127.0.0.1', resolve));
    const next = await invite(sip, number, made.body.secret, offer('127.0.0.1', media.address().port));
    expect(next.answer.statusCode).toBe(200);
    const nextRelay = world.app.sip?.relayOf(next.callId);
    expect(nextRelay?.threadId).toBeGreaterThan(0);
    expect(nextRelay?.threadId).not.toBe(relay?.threadId);
    const relayPort = Number(/m=audio (\d+)/.exec(String(next.answer.body))?.[1]);
    const silence = Buffer.concat([Buffer.from([0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2]), Buffer.alloc(160, 0xff)]);
    const sending = setInterval(() => media.send(silence, relayPort, '127.0.0.1'), 20);
    closing.push(() => {
      clearInterval(sending);
      media.close();
    });
    await expect.poll(() => nextRelay?.counts.toJanus ?? 0, { timeout: WAIT_MS }).toBeGreaterThan(5);
    await expect.poll(() => nextRelay?.counts.fromJanus ?? 0, { timeout: WAIT_MS }).toBeGreaterThan(5);
  });
});
