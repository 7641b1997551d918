/**
 * What many gateway calls at once cost (bench:gateway, issue 51): `calls` baresip phones, one gateway each (its
 * own login, DTMF floor mode, a radio: nothing is sent to it between transmissions), spread evenly over
 * `channels` channels, each playing a 1 kHz tone into its call from the moment it is set up. Janus's and the
 * Talkgroup server's CPU (user + system, from /proc/<pid>/stat) and resident memory over a window of each state:
 *
 * - idle: no call (the latency pages closed);
 * - the calls up, nobody holding a floor: every call's packets go through the relay to Janus, which mixes
 *   nothing (every participant muted) but still sends each its share of the mix;
 * - one gateway per channel holding the floor (`*`): Janus mixes its voice and every other call of the channel
 *   hears it through the relay.
 *
 * Real baresip processes rather than a load client of our own: what reaches the server is then what a real
 * SIP stack sends (its digest, its RTP timing, its RFC 4733 keys), and fifty of them on loopback cost what is
 * printed beside the figures (their CPU together), started a few at a time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createAdmin, seedFor, startServer } from '../../e2e/fixtures.ts';
import { channelNumber } from '../../packages/protocol/src/api/gateways.ts';
import { type Baresip, startBaresip } from '../../packages/server/test/baresip.ts';
import { pause } from '../ptt-latency/room-pair.ts';
import { freeSipPort } from '../server-process.ts';

/** CPU seconds a process has used (user + system), and its resident memory in MB. */
export function usage(pid: number): { cpu: number; rssMb: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const cpu = (Number(fields[11]) + Number(fields[12])) / 100;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  return { cpu, rssMb: rss };
}

/** This process's children whose command line matches (the baresip phones, the server process). */
function children(match: RegExp): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(/^\d+ \(.*\) \S+ (\d+)/s.exec(stat)?.[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (parent === process.pid && match.test(command)) pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** A phone that ended meanwhile counts for nothing. */
function cpuOf(pid: number): number {
  try {
    return usage(pid).cpu;
  } catch {
    return 0;
  }
}

export interface LoadRow {
  state: string;
  calls: number;
  talking: number;
  seconds: number;
  janusCores: number;
  janusRssMb: number;
  serverCores: number;
  serverRssMb: number;
  /** The phones' CPU together (the load generator's own cost, not the server's). */
  phonesCores: number;
}

async function window(
  state: string,
  calls: number,
  talking: number,
  pids: { janus: number; server: number },
  windowMs: number,
): Promise<LoadRow> {
  const { janus: janusPid, server: serverPid } = pids;
  const phones = children(/^baresip /);
  const phonesCpu = () => phones.reduce((sum, pid) => sum + cpuOf(pid), 0);
  const before = { janus: usage(janusPid), server: usage(serverPid), phones: phonesCpu(), at: performance.now() };
  await pause(windowMs);
  const after = { janus: usage(janusPid), server: usage(serverPid), phones: phonesCpu(), at: performance.now() };
  const seconds = (after.at - before.at) / 1000;
  return {
    state,
    calls,
    talking,
    seconds,
    janusCores: (after.janus.cpu - before.janus.cpu) / seconds,
    janusRssMb: after.janus.rssMb,
    serverCores: (after.server.cpu - before.server.cpu) / seconds,
    serverRssMb: after.server.rssMb,
    phonesCores: (after.phones - before.phones) / seconds,
  };
}

export async function measureLoad(options: {
  janus: { url: string; secret: string; pid: number };
  calls: number;
  channels: number;
  windowMs: number;
  tone: string;
  progress: (text: string) => void;
}): Promise<{ rows: LoadRow[]; established: number; failures: string[]; retried: string[]; setupSeconds: number }> {
  const { calls, windowMs, progress } = options;
  const sipPort = await freeSipPort();
  // The server as `npm start` runs it, in a process of its own: its CPU and memory are its own.
  const server = await startServer({
    JANUS_URL: options.janus.url,
    JANUS_API_SECRET: options.janus.secret,
    SIP_PORT: String(sipPort),
    SIP_HOST: '127.0.0.1',
    SIP_RTP_PORTS: '56000-56999',
    SIP_REQUESTS_PER_MINUTE: '100000',
    LOG_LEVEL: 'error',
  });
  const [serverPid] = children(/packages\/server\/start\.js/);
  if (!serverPid) throw new Error("the server process was not found among this process's children");
  const pids = { janus: options.janus.pid, server: serverPid };
  const admin = await createAdmin(server);
  const rows: LoadRow[] = [];
  const failures: string[] = [];
  const retried: string[] = [];
  await pause(2000);
  progress('load: idle');
  rows.push(await window('idle: no call', 0, 0, pids, windowMs));

  const seed = seedFor(server, admin);
  const channels: Array<{ id: number; name: string; rtcSession: string }> = [];
  for (let i = 0; i < options.channels; i += 1) channels.push(await seed.channel(`Radios ${i + 1}`));
  const phones: Array<{ phone: Baresip; channel: number }> = [];
  const setupStart = performance.now();
  progress(`, ${calls} calls `);
  try {
    // A few at a time: each start and call set-up takes a core for a moment on this 2-core machine.
    for (let first = 0; first < calls; first += 5) {
      await Promise.all(
        Array.from({ length: Math.min(5, calls - first) }, async (_, k) => {
          const index = first + k;
          const channel = channels[index % channels.length];
          const made = await server.call(
            '/user/api/createGateway',
            { name: `Radio ${index + 1}`, login: `radio-${index + 1}`, channelIds: [channel.id], floorMode: 'dtmf' },
            admin.token,
          );
          if (made.status !== 200) throw new Error(`createGateway: ${JSON.stringify(made.body)}`);
          // A phone that fails to start (another run's process took the port it had found free) gets a second try.
          for (let attempt = 1; attempt <= 2; attempt += 1) {
            let phone: Baresip | undefined;
            try {
              phone = await startBaresip({
                login: `radio-${index + 1}`,
                secret: made.body.secret,
                sipPort,
                play: options.tone,
                codecs: ['pcmu'],
                lifetimeSeconds: 900,
                timeoutMs: 30_000,
              });
              await phone.dial(channelNumber(channel as never) ?? '');
              phones.push({ phone, channel: index % channels.length });
              progress('.');
              return;
            } catch (error) {
              await phone?.stop();
              // The first line says what failed, the last what baresip printed last.
              const lines = String((error as Error).message)
                .split('\n')
                .filter((line) => line.trim());
              const reason = `${lines[0].replace(/^baresip \(.*?\): /, '')} (${lines.at(-1)?.trim()})`;
              if (attempt === 2) {
                failures.push(reason);
                progress('x');
              } else retried.push(reason);
            }
          }
        }),
      );
    }
    const setupSeconds = (performance.now() - setupStart) / 1000;
    await pause(2000);
    progress(', silent floor');
    rows.push(await window('calls up, no floor held', phones.length, 0, pids, windowMs));

    // One gateway per channel takes the floor: its voice is mixed and sent to the channel's other calls.
    const talkers = channels.map((_, index) => phones.find((entry) => entry.channel === index)).filter(Boolean);
    for (const talker of talkers) await talker?.phone.sendDtmf('*');
    const deadline = Date.now() + 15_000;
    let talking = 0;
    while (Date.now() < deadline) {
      const listed = await server.call('/user/api/listGatewayCalls', {}, admin.token);
      talking = (listed.body.res as Array<{ talking: boolean }>).filter((row) => row.talking).length;
      if (talking >= talkers.length) break;
      await pause(200);
    }
    await pause(1000);
    progress(', talking');
    rows.push(await window('calls up, one talker a channel', phones.length, talking, pids, windowMs));
    progress('\n');
    return { rows, established: phones.length, failures, retried, setupSeconds };
  } catch (error) {
    // The server's own words, when it is what failed (it runs in a process of its own).
    process.stderr.write(`\nthe server's last output:\n${server.output().slice(-4000)}\n`);
    throw error;
  } finally {
    await Promise.all(phones.map(({ phone }) => phone.stop()));
    await server.stop();
  }
}
