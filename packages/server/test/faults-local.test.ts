/**
 * An error in one piece of work ends that piece alone (issue 57): counted in /metrics as
 * talkgroup_faults_total{part}, logged once a minute per cause, never thrown out of a listener.
 *
 * - a socket event whose handler throws, before or after its first await: the client's acknowledgement says it
 *   failed, the socket's next event is answered, the fault is counted;
 * - Janus's answers: something that is not a message (`null`, an array, bad JSON), and an event whose handle's
 *   listener throws, are dropped and counted; the connection answers the next request;
 * - /metrics names every part from the start, and counts each fault.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { JanusConnection } from '../src/janus/connection.ts';
import { createFaults, FAULT_PARTS } from '../src/process/faults.ts';
import { socketTasks } from '../src/realtime/socket-tasks.ts';
import { startApp, type TestApp } from './harness.ts';

/** A log that keeps its error lines. */
function keptLog() {
  const lines: string[] = [];
  const log = {
    error: (_object: unknown, line: string) => lines.push(line),
    warn: () => {},
    info: () => {},
    debug: () => {},
    child: () => log,
  };
  return { log: log as never, lines };
}

describe('faults', () => {
  it('counts each fault, logs a cause once a minute, and guards a timer', () => {
    const faults = createFaults();
    const { log, lines } = keptLog();
    const counted: string[] = [];
    faults.attach((part) => counted.push(part), log);
    for (let i = 0; i < 50; i++) faults.fault('sip_message', new TypeError('bad CSeq'));
    faults.fault('sip_message', new RangeError('another cause'));
    const tick = faults.guard('timer', () => {
      throw new Error('a tick failed');
    });
    expect(() => tick()).not.toThrow();
    expect(faults.counts()).toMatchObject({ sip_message: 51, timer: 1, janus: 0 });
    expect(counted).toHaveLength(52);
    // One line per cause within the minute: the flood of the same bad message is one line.
    expect(lines).toHaveLength(3);
    expect(lines[0]).toContain('TypeError: bad CSeq');
  });

  it("ends a socket event whose handler throws, and answers the socket's next event", async () => {
    const faults = createFaults();
    const listeners = new Map<string, (...args: unknown[]) => void>();
    const emitted: unknown[] = [];
    const socket = {
      connected: true,
      disconnected: false,
      on: (event: string, listener: (...args: unknown[]) => void) => listeners.set(event, listener),
      emit: (...args: unknown[]) => emitted.push(args),
    };
    const { log } = keptLog();
    const tasks = socketTasks(socket as never, log, () => {}, faults);
    tasks.answerNow('press', (payload) => {
      if ((payload as { bad?: boolean }).bad) throw new TypeError('thrown before any await');
      return Promise.resolve({ success: true, result: 'pressed' });
    });
    tasks.on('queued', (payload) => {
      if ((payload as { bad?: boolean }).bad) throw new TypeError('thrown in the queue');
    });
    const ack = (event: string, payload: unknown) =>
      new Promise<{ success: boolean }>((resolve) => listeners.get(event)?.(payload, resolve));

    expect((await ack('press', { bad: true })).success).toBe(false);
    expect((await ack('queued', { bad: true })).success).toBe(false);
    expect(await ack('press', {})).toEqual({ success: true, result: 'pressed' });
    expect((await ack('queued', {})).success).toBe(true);
    expect(faults.counts().socket_event).toBe(2);
    expect(emitted).toHaveLength(2);
  });

  describe("Janus's answers", () => {
    let server: WebSocketServer | undefined;
    let connection: JanusConnection | undefined;
    afterEach(async () => {
      await connection?.stop();
      await new Promise((resolve) => server?.close(resolve));
    });

    it('drops what is not a message and an event whose listener throws, and answers the next request', async () => {
      const faults = createFaults();
      server = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'janus-protocol' });
      server.on('connection', (ws) => {
        ws.on('message', (data) => {
          const request = JSON.parse(String(data));
          // Before each answer: what no Janus sends, and an event for handle 7 (whose listener throws).
          for (const junk of ['null', '[1,2]', '"text"', '{not json', '{"janus":"event","sender":7}']) ws.send(junk);
          ws.send(JSON.stringify({ janus: 'success', transaction: request.transaction, data: { id: 42 } }));
        });
      });
      await new Promise((resolve) => server?.once('listening', resolve));
      const { port } = server.address() as AddressInfo;
      let up: () => void = () => {};
      const isUp = new Promise<void>((resolve) => {
        up = resolve;
      });
      const { log } = keptLog();
      connection = new JanusConnection({
        url: `ws://127.0.0.1:${port}`,
        log,
        onUp: () => up(),
        onDown: () => {},
        fault: (error) => faults.fault('janus', error),
      });
      connection.start();
      await isUp;
      connection.onHandle(7, () => {
        throw new Error('a listener failed');
      });
      for (let i = 0; i < 2; i++) {
        const answer = await connection.request({ janus: 'create' });
        expect(answer.data?.id).toBe(42);
      }
      expect(faults.counts().janus).toBe(10);
    });
  });

  describe('/metrics', () => {
    let app: TestApp | undefined;
    afterEach(async () => {
      await app?.close();
    });

    it('names every part at 0 and counts the faults of the app', async () => {
      app = await startApp('sqlite', { metricsToken: 'scrape-me-please' });
      const scrape = async () =>
        (
          await app?.fastify.inject({
            method: 'GET',
            url: '/metrics',
            headers: { authorization: 'Bearer scrape-me-please' },
          })
        )?.body ?? '';
      const before = await scrape();
      for (const part of FAULT_PARTS) expect(before).toContain(`talkgroup_faults_total{part="${part}"} 0`);
      app.services.faults.fault('rtp_relay', new Error('a packet failed'));
      app.services.faults.fault('rtp_relay', new Error('a packet failed'));
      expect(await scrape()).toContain('talkgroup_faults_total{part="rtp_relay"} 2');
    });
  });
});
