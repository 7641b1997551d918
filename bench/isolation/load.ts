/**
 * What bench:isolation puts on the server while it measures (run.ts): a 365-day report asked again and again (one
 * at a time, as the page asks it), a 15,000-user import as one job (bench:import's rows, full hash strength), and
 * gateway calls by real baresip phones (bench:gateway's: DTMF floor mode, PCMU, a 1 kHz tone all along, one
 * phone a channel holding the floor so that Janus mixes it and the relay sends it to the channel's other calls).
 * Each starts when its window opens and reports what it did when the window closes.
 */
import { channelNumber } from '../../packages/protocol/src/api/gateways.ts';
import { type Baresip, startBaresip } from '../../packages/server/test/baresip.ts';
import type { Call } from './probes.ts';

const DAY_MS = 86_400_000;

export interface Load {
  /** Started as the window opens. */
  start(): void;
  /** The window has closed: a line of what the load did in it. */
  stop(): Promise<string>;
}

/** 365-day reports over every channel, one after the other, by the administrator; a refused one is counted. */
export function reportLoad(call: Call, token: string): Load {
  let stopping = false;
  let running: Promise<{ times: number[]; failed: string[] }> | undefined;
  return {
    start() {
      stopping = false;
      running = (async () => {
        const times: number[] = [];
        const failed: string[] = [];
        while (!stopping) {
          const started = performance.now();
          const to = Date.now();
          const from = new Date(to - 365 * DAY_MS).toISOString();
          try {
            await call('/user/api/getReport', { from, to: new Date(to).toISOString() }, token);
            times.push(performance.now() - started);
          } catch (error) {
            // The server's answer (a 503 past the database's statement timeout on a loaded machine): said, not fatal.
            failed.push(
              `${String((error as Error).message).slice(0, 120)} after ${((performance.now() - started) / 1000).toFixed(1)} s`,
            );
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }
        return { times, failed };
      })();
    },
    async stop() {
      stopping = true;
      const { times, failed } = (await running) ?? { times: [], failed: [] };
      const each = times.map((ms) => (ms / 1000).toFixed(1)).join(', ');
      return (
        `${times.length} reports of 365 days${times.length ? `, ${each} s each` : ''}` +
        (failed.length ? `; ${failed.length} failed: ${failed[0]}` : '')
      );
    },
  };
}

/** One import job of `users` users (bench:import's rows) sent as the window opens; it runs on after the window. */
export function importLoad(call: Call, token: string, users: number): Load {
  const rows = Array.from({ length: users }, (_, i) => ({
    firstName: 'Bench',
    lastName: `Import ${i}`,
    identifier: `isolation-import${i}@example.org`,
    pseudo: `iso${i}`,
    password: `Import-pass-${i}-2025`,
    mapRight: i % 2 ? 'vrai' : 'faux',
    canal: '',
  }));
  let started: Promise<{ jobId: number; answeredMs: number }> | undefined;
  return {
    start() {
      const sent = performance.now();
      started = call('/user/api/createMultipleUsers', { userData: rows }, token).then((answer) => {
        if (answer.jobId === undefined) throw new Error('the import was not made a job');
        return { jobId: answer.jobId, answeredMs: performance.now() - sent };
      });
    },
    async stop() {
      const { jobId, answeredMs } = await (started as NonNullable<typeof started>);
      const job = (await call('/user/api/getImportJob', { jobId }, token)).res;
      return (
        `import of ${users.toLocaleString('en')} users answered in ${answeredMs.toFixed(0)} ms; ` +
        `${job.done} of ${job.total} rows done as the window closed (${job.state})`
      );
    },
  };
}

/**
 * `calls` baresip phones over `channels` new channels, set up before the window (a few at a time: each start
 * takes a core for a moment), one per channel holding the floor; hung up after it.
 */
export async function gatewayCallsLoad(
  call: Call,
  token: string,
  options: { sipPort: number; calls: number; channels: number; tone: string; progress: (text: string) => void },
): Promise<Load & { established: number; failures: string[] }> {
  const { calls, progress } = options;
  const channels: Array<{ id: number; voiceMode: string }> = [];
  for (let i = 0; i < options.channels; i++)
    channels.push((await call('/user/api/createChannel', { channelName: `Isolation radios ${i + 1}` }, token)).res);
  const phones: Array<{ phone: Baresip; channel: number }> = [];
  const failures: string[] = [];
  const setUp = performance.now();
  for (let first = 0; first < calls; first += 5) {
    await Promise.all(
      Array.from({ length: Math.min(5, calls - first) }, async (_, k) => {
        const index = first + k;
        const channel = channels[index % channels.length];
        const made = await call(
          '/user/api/createGateway',
          { name: `Radio ${index + 1}`, login: `iso-radio-${index + 1}`, channelIds: [channel.id], floorMode: 'dtmf' },
          token,
        );
        // A phone that fails to start (a port taken meanwhile by other work on the machine) gets a second try.
        for (let attempt = 1; attempt <= 2; attempt++) {
          let phone: Baresip | undefined;
          try {
            phone = await startBaresip({
              login: `iso-radio-${index + 1}`,
              secret: made.secret,
              sipPort: options.sipPort,
              play: options.tone,
              codecs: ['pcmu'],
              lifetimeSeconds: 1200,
              timeoutMs: 30_000,
            });
            await phone.dial(channelNumber(channel) ?? '');
            phones.push({ phone, channel: index % channels.length });
            progress('.');
            return;
          } catch (error) {
            await phone?.stop();
            if (attempt === 2) {
              failures.push(String((error as Error).message).split('\n')[0]);
              progress('x');
            }
          }
        }
      }),
    );
  }
  // One gateway a channel takes the floor: Janus mixes its voice for the channel's other calls.
  const talkers = channels.map((_, index) => phones.find((entry) => entry.channel === index)).filter(Boolean);
  for (const talker of talkers) await talker?.phone.sendDtmf('*');
  const deadline = Date.now() + 15_000;
  let talking = 0;
  while (Date.now() < deadline) {
    const listed = await call('/user/api/listGatewayCalls', {}, token);
    talking = (listed.res as Array<{ talking: boolean }>).filter((row) => row.talking).length;
    if (talking >= talkers.length) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const setUpSeconds = (performance.now() - setUp) / 1000;
  return {
    established: phones.length,
    failures,
    start() {},
    async stop() {
      const listed = await call('/user/api/listGatewayCalls', {}, token);
      const up = (listed.res as unknown[]).length;
      await Promise.all(phones.map(({ phone }) => phone.stop()));
      return (
        `${phones.length} baresip calls set up in ${setUpSeconds.toFixed(0)} s over ${channels.length} channels, ` +
        `${talking} holding the floor; ${up} calls listed as the window closed` +
        (failures.length ? `; ${failures.length} phones failed: ${failures[0]}` : '')
      );
    },
  };
}
