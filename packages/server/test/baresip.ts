/**
 * A real SIP phone for the SIP gateway's tests and bench: Debian's baresip (1.0.0), one process per phone with
 * its own configuration directory, its own SIP port and RTP ports on loopback, no audio device (a WAV file or
 * silence as its microphone through the aufile module, the sndfile module recording what it hears) and no video.
 * It is driven through its ctrl_tcp module, as an application would drive it: netstring-framed JSON commands
 * (`dial`, `hangup`, `sndcode`, `accept`: the menu module's long commands) and the events it sends back
 * (CALL_ESTABLISHED, CALL_CLOSED with the SIP status and reason, CALL_DTMF_START...). Every wait is on one of
 * those events or on a process state, with a bound.
 *
 * What baresip 1.0.0 does and this harness keeps in mind (read in its source, tag v1.0.0):
 * - The account's AOR is `sip:{login}@{host}:{sipPort}`: `dial 1001` completes the number with the AOR's host,
 *   port and URI parameters (`;transport=tcp` included), so a phone dials the one server it is set up for
 *   (a full `sip:` URI gets the AOR's URI parameters appended too).
 * - Digest on the INVITE without a REGISTER: `regint=0` (otherwise it registers every hour or so) and
 *   `auth_pass` (a password in the URI is dropped); the digest username is `auth_user`, else the AOR's user.
 * - It answers a 401 or 407 to its INVITE once with credentials (libre 1.1.0: MD5 only, qop=auth when offered,
 *   the digest uri is the Request-URI with its `;transport=tcp`); a second challenge that is not `stale=true`
 *   ends the call with that status (CALL_CLOSED "401 Unauthorized"). Checked against a challenging listener.
 * - It sends DTMF as RFC 4733 telephone-events only: `sndcode` has no SIP INFO path in 1.0.0 (INFO came later,
 *   with the account's `dtmfmode`); it does receive SIP INFO (application/dtmf-relay) and RFC 4733 alike.
 * - aufile is a source only, opened at the rate and channels of `ausrc_srate`/`ausrc_channels` (set here from
 *   the WAV file itself; baresip resamples to the codec), and it ends the call ("end of file") when the file
 *   runs out: a call lasts at most as long as the file it plays.
 * - With no player module loaded, the audio path decodes and filters what arrives (sndfile writes it) and
 *   plays nothing: no sound card is needed.
 * - The sndfile module writes `dump-{time}-dec.wav` (heard) and `dump-{time}-enc.wav` (sent) in `snd_path`,
 *   at the codec's rate and channels (Opus: 48 kHz, mono here), and fills in the WAV sizes only when the call ends.
 * - ctrl_tcp takes one connection at a time, and events go to that connection only.
 *
 * Its configuration and ports are written in baresip-config.ts, its ctrl_tcp client is baresip-control.ts.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AudioCodec, accountLine, baresipConfig, freePhonePorts, freeRtpPorts } from './baresip-config.ts';
import { type BaresipEvent, bounded, ControlChannel, until } from './baresip-control.ts';
import { readWav, toneProfile, wavFormat, writeToneWav } from './wav.ts';

export type { AudioCodec } from './baresip-config.ts';
export type { BaresipEvent } from './baresip-control.ts';
export { readWav, toneLevel, toneProfile, toneSeconds, writeToneWav, writeWav } from './wav.ts';

export const BARESIP_BINARY = process.env.BARESIP_BINARY ?? 'baresip';

/** Whether baresip can be run here (the tests that need it skip, naming it, when it cannot). */
export function baresipAvailable(): boolean {
  const probe = spawnSync(BARESIP_BINARY, ['-h'], { encoding: 'utf8', timeout: 5000 });
  return probe.error === undefined && /baresip v/.test(`${probe.stdout}${probe.stderr}`);
}

export interface BaresipOptions {
  /** The gateway's SIP login: the AOR's user and the digest username. */
  login: string;
  /** The digest password; none: the phone answers no challenge. */
  secret?: string;
  /** Where the server (or the other phone) listens; the phone's own SIP and RTP also bind there. */
  host?: string;
  /** The server's (or other phone's) SIP port: `dial` calls `sip:{number}@{host}:{sipPort}`; none: 5060. */
  sipPort?: number;
  transport?: 'udp' | 'tcp';
  /** A 16-bit PCM WAV file to send; none: silence (a silent file of `silenceSeconds`). */
  play?: string;
  /** How long the silence lasts when nothing is played (the call ends with it). */
  silenceSeconds?: number;
  /** Records what it hears (the decoded stream) to a WAV file in its own directory. */
  record?: boolean;
  /** The audio codecs it offers, in order of preference. */
  codecs?: AudioCodec[];
  /** baresip 1.0.0 sends RFC 4733 only: 'info' is refused with the reason. */
  dtmf?: 'rfc4733' | 'info';
  /** Answers incoming calls by itself (the account's `answermode=auto`), for phone-to-phone tests. */
  autoAnswer?: boolean;
  /** baresip's debug log (`-v`) and SIP trace (`-s`) in `output()`, to see what went over the wire. */
  trace?: boolean;
  /** baresip quits by itself after this long (its `-t`), should the test process die without stopping it. */
  lifetimeSeconds?: number;
  /** Bound of each wait on baresip (start, a call's set-up, a hang-up), in ms. */
  timeoutMs?: number;
}

/** A refused or failed call: the SIP status of the final answer (401, 403, 404...) when there was one. */
export class CallRefused extends Error {
  readonly status: number | undefined;
  readonly reason: string;

  constructor(status: number | undefined, reason: string) {
    super(`call refused: ${reason}`);
    this.status = status;
    this.reason = reason;
  }
}

export interface BaresipCall {
  /** The call's SIP Call-ID. */
  id?: string;
  peerUri?: string;
}

export interface Baresip {
  /** The phone's own SIP port (UDP and TCP) and RTP range. */
  sipPort: number;
  rtpPorts: [number, number];
  /** Its configuration directory (config, accounts, recordings). */
  dir: string;
  /** Its SIP address: what another phone dials to reach it. */
  aor: string;
  /** Calls `sip:{number}@{host}:{sipPort}` (or a full `sip:` URI); resolves once established. */
  dial(number: string): Promise<BaresipCall>;
  /** Waits for an incoming call to be established (auto-answered, or after `accept`). */
  established(): Promise<BaresipCall>;
  accept(): Promise<void>;
  /** Sends DTMF digits (0-9, *, #, A-D) on the current call. */
  sendDtmf(digits: string): Promise<void>;
  /** Hangs up the current call and waits for it to be closed. */
  hangup(): Promise<void>;
  /** Waits for the current call to be closed by the other side; resolves with the reason baresip gives. */
  closed(): Promise<string | undefined>;
  /** Waits for an event of this type (from now, or from the index `since` of `events`) that `match` accepts. */
  waitFor(type: string, match?: (event: BaresipEvent) => boolean, since?: number): Promise<BaresipEvent>;
  /** Every event received so far. */
  events: BaresipEvent[];
  /** Sends one ctrl_tcp command (a menu long command) and resolves with its response's data. */
  command(command: string, params?: string): Promise<string>;
  /**
   * The WAV file of what the last call heard. Once that call is closed, waits until baresip has finished
   * the file; during a call, the file so far (readWav reads an unfinished file).
   */
  recording(): Promise<string>;
  /** Waits until the current call's recording holds `seconds` of audio (what arrived, tone or not). */
  recorded(seconds: number): Promise<void>;
  /**
   * Waits until the current call's recording holds `seconds` (0.5 by default) of `hz` louder than `thresholdDb`
   * (-30 dBFS by default), by 100 ms blocks: what a test waits on before it checks a level or hangs up.
   */
  hears(hz: number, options?: { seconds?: number; thresholdDb?: number }): Promise<void>;
  /** Ends baresip (SIGTERM, then SIGKILL past the bound) and removes its directory. */
  stop(): Promise<void>;
  /** What baresip printed (its log), for a failing test's message. */
  output(): string;
}

/** The phones of this process, ended with it (a worker that exits without `stop` leaves no baresip behind). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startBaresip(options: BaresipOptions): Promise<Baresip> {
  const host = options.host ?? '127.0.0.1';
  const transport = options.transport ?? 'udp';
  const timeoutMs = options.timeoutMs ?? 10_000;
  const codecs = options.codecs ?? ['pcmu', 'pcma', 'opus'];
  if (options.dtmf === 'info') {
    throw new Error(
      'baresip 1.0.0 sends DTMF as RFC 4733 only (its sndcode has no SIP INFO path); test SIP INFO with another UA',
    );
  }

  const dir = await mkdtemp(join(tmpdir(), 'tg-baresip-'));
  let play = options.play;
  if (!play) {
    play = join(dir, 'silence.wav');
    await writeToneWav(play, { hz: 0, seconds: options.silenceSeconds ?? 120, rate: 8000 });
  }
  const source = await wavFormat(play);
  if (source.bits !== 16) throw new Error(`${play}: baresip's aufile plays 16-bit PCM only (${source.bits}-bit)`);

  const uriParams = transport === 'tcp' ? ';transport=tcp' : '';
  await writeFile(join(dir, 'accounts'), accountLine({ ...options, host, transport, codecs }));
  const lifetime = String(options.lifetimeSeconds ?? 600);
  let log = '';
  const fail = (what: string) => new Error(`baresip (${dir}): ${what}\n--- its output ---\n${log}`);

  /** One start on ports free a moment ago; another test's phone may take them first (then: 'taken'). */
  const start = async () => {
    const [{ sipPort, controlPort }, rtpPorts] = await Promise.all([freePhonePorts(host), freeRtpPorts(host)]);
    await writeFile(
      join(dir, 'config'),
      baresipConfig({ host, sipPort, controlPort, rtpPorts, play, source, record: options.record ?? false, dir }),
    );
    log = '';
    const child = spawn(BARESIP_BINARY, ['-f', dir, '-t', lifetime, ...(options.trace ? ['-v', '-s'] : [])], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    const onOutput = (chunk: Buffer) => {
      log += chunk.toString();
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    const exited = new Promise<void>((resolve) =>
      child.once('exit', () => {
        running.delete(child);
        resolve();
      }),
    );
    try {
      await bounded(
        Promise.race([
          waitForOutput(child, () => log.includes('baresip is ready.')),
          exited.then(() => Promise.reject(fail('exited while starting'))),
        ]),
        timeoutMs,
        () => fail('not ready'),
      );
    } catch (error) {
      child.kill('SIGKILL');
      if (!log.includes('Address already in use')) throw error;
      await exited;
      return 'taken' as const;
    }
    return { child, exited, sipPort, controlPort, rtpPorts };
  };

  let started: Exclude<Awaited<ReturnType<typeof start>>, 'taken'> | undefined;
  try {
    for (let attempt = 1; !started; attempt++) {
      const outcome = await start();
      if (outcome !== 'taken') started = outcome;
      else if (attempt === 3) throw fail('its ports were taken three times over');
    }
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const { child, exited, sipPort, controlPort, rtpPorts } = started;

  // An account naming a codec baresip does not have falls back to every codec, silently but for this line.
  const missingCodec = /account: audio codec not found: (\S+)/.exec(log);
  if (missingCodec) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw fail(`no codec ${missingCodec[1]}`);
  }
  const control = await ControlChannel.open(host, controlPort, timeoutMs, fail);

  async function latestRecording(): Promise<string> {
    if (!options.record) throw new Error('this phone records nothing: start it with record: true');
    const dumps = (await readdir(dir)).filter((name) => /^dump-.*-dec\.wav$/.test(name)).sort();
    const last = dumps.at(-1);
    if (!last) throw fail('no recording: no call had audio');
    return join(dir, last);
  }

  // Events before `cursor` are done with (a call answered or closed); `call` is the index of the current call's
  // CALL_ESTABLISHED. One call at a time: a gateway places one call.
  let cursor = 0;
  let call: number | undefined;
  const settle = (outcome: BaresipEvent) => {
    const index = control.events.indexOf(outcome);
    cursor = Math.max(cursor, index + 1);
    if (outcome.type === 'CALL_CLOSED') {
      call = undefined;
      throw refusal(outcome.param);
    }
    call = index;
    return { id: outcome.id, peerUri: outcome.peeruri };
  };

  const phone: Baresip = {
    sipPort,
    rtpPorts,
    dir,
    aor: `sip:${options.login}@${host}:${sipPort}${uriParams}`,
    events: control.events,
    command: (command, params) => control.command(command, params, timeoutMs),
    waitFor: (type, match, since) => control.waitFor(type, match, since, timeoutMs),
    async dial(number) {
      const since = control.events.length;
      await control.command('dial', number, timeoutMs);
      const outgoing = (event: BaresipEvent) => event.direction === 'outgoing';
      return settle(await control.waitFor('CALL_ESTABLISHED|CALL_CLOSED', outgoing, since, timeoutMs));
    },
    async established() {
      const incoming = (event: BaresipEvent) => event.direction === 'incoming';
      return settle(await control.waitFor('CALL_ESTABLISHED|CALL_CLOSED', incoming, cursor, timeoutMs));
    },
    async accept() {
      await control.command('accept', undefined, timeoutMs);
    },
    async sendDtmf(digits) {
      if (!/^[0-9*#A-Da-d]+$/.test(digits)) throw new Error(`not DTMF digits: "${digits}"`);
      await control.command('sndcode', digits, timeoutMs);
    },
    async hangup() {
      const since = control.events.length;
      await control.command('hangup', undefined, timeoutMs);
      const closed = await control.waitFor('CALL_CLOSED', undefined, since, timeoutMs);
      cursor = Math.max(cursor, control.events.indexOf(closed) + 1);
      call = undefined;
    },
    async closed() {
      const closed = await control.waitFor('CALL_CLOSED', undefined, call ?? cursor, timeoutMs);
      cursor = Math.max(cursor, control.events.indexOf(closed) + 1);
      call = undefined;
      return closed.param;
    },
    async recording() {
      const path = await latestRecording();
      const lastEvent = control.events.findLast((event) => /^CALL_(ESTABLISHED|CLOSED)$/.test(event.type));
      if (lastEvent?.type === 'CALL_CLOSED') {
        // baresip sends CALL_CLOSED and then frees the call, whose sndfile filter writes the WAV sizes on close.
        await until(
          () => finished(path),
          timeoutMs,
          () => fail(`${path} was never finished`),
        );
      }
      return path;
    },
    async recorded(seconds) {
      let heard = 0;
      await until(
        async () => {
          const path = await latestRecording().catch(() => undefined);
          if (!path) return false;
          const wav = await readWav(path).catch(() => undefined);
          if (!wav) return false;
          heard = wav.samples.length / wav.rate;
          return heard >= seconds;
        },
        timeoutMs,
        () => fail(`the recording holds ${heard.toFixed(2)} s of audio, not ${seconds} s`),
      );
    },
    async hears(hz, { seconds = 0.5, thresholdDb = -30 } = {}) {
      let levels: number[] = [];
      await until(
        async () => {
          const path = await latestRecording().catch(() => undefined);
          if (!path) return false;
          const wav = await readWav(path).catch(() => undefined);
          if (!wav) return false;
          levels = toneProfile(wav, hz);
          return levels.filter((level) => level > thresholdDb).length / 10 >= seconds;
        },
        timeoutMs,
        () =>
          fail(
            `${hz} Hz was not heard for ${seconds} s above ${thresholdDb} dBFS; 100 ms levels: ${levels.map((level) => level.toFixed(0)).join(' ')}`,
          ),
      );
    },
    async stop() {
      control.close();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killed = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        await exited;
        clearTimeout(killed);
      }
      await rm(dir, { recursive: true, force: true });
    },
    output: () => log,
  };
  return phone;
}

function refusal(param: string | undefined): CallRefused {
  const reason = param ?? 'closed';
  const status = /^(\d{3}) /.exec(reason);
  return new CallRefused(status ? Number(status[1]) : undefined, reason);
}

/** Resolves once `ready` holds after some output of the child (checked on each chunk it prints). */
function waitForOutput(child: ChildProcess, ready: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!ready()) return;
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      resolve();
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    check();
  });
}

/** Whether libsndfile has written the WAV's RIFF size (it does so when it closes the file). */
async function finished(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const header = Buffer.alloc(8);
    const { bytesRead } = await file.read(header, 0, 8, 0);
    return bytesRead === 8 && header.readUInt32LE(4) === size - 8;
  } finally {
    await file.close();
  }
}
