/**
 * Live video, measured (issue 61 item 6), through Janus's VideoRoom (simulcast) and on the mesh, in one run:
 * a Talkgroup server with JANUS_URL and a Janus of its own (e2e/media-servers.ts's janusDeployment), one
 * without, a headless Chromium whose fake camera is the member's phone (/talk) and whose other pages are
 * dispatchers' consoles (/dispatch), as e2e/video-*.spec.ts open them. The organisation starts video without
 * consent, so that a dispatcher's `requestVideo` starts the phone's camera at once.
 *
 * - **Request to first frame**: from the HTTP `requestVideo` to the first decoded frame of the stream's <video>
 *   on the console (`requestVideoFrameCallback`), p50 / p95 over `--runs` requests (the phone stops its video
 *   between them).
 * - **Capped uplink**: the phone's video senders capped at 2 Mbit/s and at 300 kbit/s with
 *   `RTCRtpSender.setParameters` (maxBitrate on the encodings, the simulcast layers in proportion; Chromium's
 *   network emulation does not touch WebRTC's UDP and there is no tc here); the frames a second and the size
 *   received by the console's tile and by its full view, over `--window` seconds, and the video the phone sent.
 * - **Viewers**: 0, 1, 2 and 4 consoles watching; Janus's CPU (user + system from /proc/<pid>/stat) over the
 *   window, less what it spends with no viewer, per viewer; the phone's video uplink (on the mesh it grows with
 *   each viewer, through Janus it should not).
 *
 * `npm run bench:video [-- --runs 5] [--window 5] [--planes janus,mesh]`. Prints figures, never passes or fails.
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { type Browser, chromium, type Locator } from '@playwright/test';
import {
  type Account,
  createAdmin,
  type Seed,
  seedFor,
  startServer,
  type TalkgroupServer,
} from '../../e2e/fixtures.ts';
import { exposeConnections, janusDeployment } from '../../e2e/media-servers.ts';
import { openAs, type RoomPage } from '../../e2e/room-support.ts';
import { PHONE } from '../../e2e/talk-support.ts';
import { deskOn, videoLaunchOptions } from '../../e2e/video-support.ts';
import { percentile } from '../media/report.ts';
import {
  capUplink,
  clearFirstFrames,
  firstFrame,
  framesReceived,
  markFirstFrames,
  pause,
  videoBytesSent,
} from './probes.ts';

const option = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const runs = Number(option('--runs')) || 5;
const windowMs = (Number(option('--window')) || 5) * 1000;
const planes = (option('--planes') ?? 'janus,mesh').split(',');
const CAPS = [2_000_000, 300_000];
const VIEWERS = [0, 1, 2, 4];
const loads = [loadavg()[0]];

interface Plane {
  name: string;
  server: TalkgroupServer;
  seed: Seed;
  adminToken: string;
  janusPid?: () => number;
  stop(): Promise<void>;
}

/** CPU seconds (user + system) a process has used. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function startPlane(name: string): Promise<Plane> {
  if (name === 'janus') {
    const deployment = await janusDeployment({ LOG_LEVEL: 'error' });
    return {
      name: 'Janus (VideoRoom, simulcast)',
      server: deployment.server,
      seed: deployment.seed,
      adminToken: deployment.admin.token,
      janusPid: deployment.janus.pid,
      stop: deployment.stop,
    };
  }
  const server = await startServer({ LOG_LEVEL: 'error' });
  const admin = await createAdmin(server);
  return {
    name: 'mesh (peer to peer)',
    server,
    seed: seedFor(server, admin),
    adminToken: admin.token,
    stop: server.stop,
  };
}

const progress = (text: string) => process.stdout.write(text);
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : '–');
const kbps = (bytes: number, seconds: number) => `${Math.round((bytes * 8) / seconds / 1000)} kbit/s`;

/** Measures one plane, its figures pushed to `lines` as they come (a plane stopped midway keeps its figures). */
async function measurePlane(browser: Browser, plane: Plane, lines: string[]): Promise<void> {
  const { server, seed } = plane;
  lines.push(`## ${plane.name}`);
  const field = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Phone' });
  const desks: Account[] = [];
  for (let i = 1; i <= Math.max(...VIEWERS); i += 1)
    desks.push(await seed.member({ firstName: 'Desk', lastName: `Number${i}`, role: 'dispatcher' }));
  await seed.addToChannel(field.id, [mia.id, ...desks.map((desk) => desk.id)]);
  const set = await server.call('/user/api/setVideoSettings', { remoteVideo: 'without_consent' }, plane.adminToken);
  if (set.status !== 200) throw new Error(`setVideoSettings: ${JSON.stringify(set.body)}`);

  const phone = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
  await exposeConnections(phone.page);
  await phone.page.goto(`/talk/${field.id}`);
  await phone.page.getByRole('button', { name: 'Push to talk' }).waitFor({ state: 'visible', timeout: 60_000 });
  const stopButton = phone.page.getByRole('button', { name: 'Stop video' });
  const request = async () => {
    const asked = await server.call('/user/api/requestVideo', { userId: mia.id, channelId: field.id }, desks[0].token);
    if (asked.status !== 200) throw new Error(`requestVideo: ${JSON.stringify(asked.body)}`);
    await stopButton.waitFor({ state: 'visible', timeout: 30_000 });
  };
  const stopVideo = async () => {
    await stopButton.click();
    await phone.page.getByRole('button', { name: 'Video', exact: true }).waitFor({ timeout: 30_000 });
  };
  const open: RoomPage[] = [];
  const openDesk = async (index: number) => {
    const desk = await deskOn(browser, server, desks[index], [field.id]);
    open.push(desk);
    return desk;
  };
  const streamOn = (desk: RoomPage) =>
    desk.page
      .getByRole('region', { name: `Live videos — ${field.name}` })
      .getByRole('group', { name: 'Live video — Mia Phone' });

  try {
    // Request to first frame, the console open before each request.
    const console1 = await openDesk(0);
    await console1.page.getByRole('region', { name: `Channel ${field.name}` }).waitFor({ timeout: 60_000 });
    await markFirstFrames(console1.page);
    const toFirst: number[] = [];
    let missed = 0;
    progress(`${plane.name}, request to first frame: `);
    for (let run = 0; run < runs; run += 1) {
      await clearFirstFrames(console1.page);
      const askedAt = Date.now();
      await request();
      const first = await firstFrame(console1.page);
      if (first === null) missed += 1;
      else toFirst.push(first - askedAt);
      progress(first === null ? 'x' : '.');
      await stopVideo();
      await streamOn(console1).waitFor({ state: 'detached', timeout: 30_000 });
      await pause(1000);
    }
    progress('\n');
    lines.push(
      `request to first frame (requestVideo → first decoded frame on the console, ${toFirst.length} of ${runs}${missed ? `, ${missed} without a frame in 30 s` : ''}): p50 ${ms(percentile(toFirst, 50))}, p95 ${ms(percentile(toFirst, 95))}`,
    );

    // Capped uplink: what the console's tile and full view receive.
    progress(`${plane.name}, capped uplink: `);
    await request();
    const stream = streamOn(console1);
    const tile: Locator = stream.getByLabel('Video of Mia Phone');
    await tile.waitFor({ timeout: 30_000 });
    await pause(3000);
    lines.push(
      'uplink capped on the sharing page: RTCRtpSender.setParameters maxBitrate on its video encodings (simulcast layers in proportion, each mesh viewer capped alike); not tc, not CDP',
    );
    for (const cap of CAPS) {
      const maxima = await capUplink(phone.page, cap);
      await pause(4000);
      const sentBefore = { bytes: await videoBytesSent(phone.page), at: performance.now() };
      const small = await framesReceived(tile, windowMs);
      await stream.getByRole('button', { name: 'Full screen' }).click();
      const dialog = console1.page.getByRole('dialog', { name: 'Video of Mia Phone' });
      await pause(3000);
      const large = await framesReceived(dialog.getByLabel('Video of Mia Phone'), windowMs);
      const sent = (await videoBytesSent(phone.page)) - sentBefore.bytes;
      const seconds = (performance.now() - sentBefore.at) / 1000;
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      lines.push(
        `  cap ${cap / 1000} kbit/s (set: ${maxima.join('; ') || 'no video sender'}): tile ${small.fps.toFixed(1)} fps ${small.width}x${small.height}, full view ${large.fps.toFixed(1)} fps ${large.width}x${large.height}; the phone sent ${kbps(sent, seconds)} of video`,
      );
      progress('.');
    }
    await capUplink(phone.page, null);
    await stopVideo();
    await stream.waitFor({ state: 'detached', timeout: 30_000 });
    progress('\n');

    // Viewers: Janus's CPU and the phone's uplink with 0, 1, 2, 4 consoles watching.
    progress(`${plane.name}, viewers: `);
    for (const desk of open.splice(0)) await desk.close();
    await request();
    await pause(3000);
    let idleCores = Number.NaN;
    const notes: string[] = [];
    for (const viewers of VIEWERS) {
      while (open.length < viewers) {
        // A console whose page does not load (a loaded machine) is noted; the row counts those that receive.
        const desk = await openDesk(open.length).catch((error: Error) => {
          notes.push(`console ${open.length + 1}: ${error.message.split('\n')[0]}`);
        });
        if (!desk) break;
        const video = streamOn(desk).getByLabel('Video of Mia Phone');
        await video.waitFor({ timeout: 60_000 }).catch(async () => {
          const full = await desk.page.getByText('This live video already has its').count();
          notes.push(`console ${open.length}: ${full ? 'refused (viewers full)' : 'no video in 60 s'}`);
        });
      }
      await pause(3000);
      const pid = plane.janusPid?.();
      const before = { cpu: pid ? cpuSeconds(pid) : 0, sent: await videoBytesSent(phone.page), at: performance.now() };
      await pause(windowMs);
      const seconds = (performance.now() - before.at) / 1000;
      const sent = (await videoBytesSent(phone.page)) - before.sent;
      const receiving = await Promise.all(
        open.map((desk) =>
          streamOn(desk)
            .getByLabel('Video of Mia Phone')
            .evaluate((video: HTMLVideoElement) => video.videoWidth > 0)
            .catch(() => false),
        ),
      );
      let janus = '';
      if (pid) {
        const cores = (cpuSeconds(pid) - before.cpu) / seconds;
        if (viewers === 0) idleCores = cores;
        const perViewer =
          viewers > 0 ? `, ${(((cores - idleCores) / viewers) * 100).toFixed(1)} % of a core per viewer` : '';
        janus = `Janus ${(cores * 100).toFixed(1)} % of a core${perViewer}; `;
      }
      lines.push(
        `  ${viewers} viewer${viewers === 1 ? '' : 's'} (${receiving.filter(Boolean).length} receiving): ${janus}the phone sent ${kbps(sent, seconds)} of video${notes.length ? ` (${notes.splice(0).join('; ')})` : ''}`,
      );
      loads.push(loadavg()[0]);
      progress('.');
    }
    progress('\n');
  } finally {
    await Promise.allSettled([phone.close(), ...open.map((desk) => desk.close())]);
  }
}

const browser = await chromium.launch(videoLaunchOptions);
const report: string[] = [];
try {
  for (const name of planes) {
    const plane = await startPlane(name);
    try {
      await measurePlane(browser, plane, report);
    } catch (error) {
      report.push(`  (${plane.name} stopped here: ${(error as Error).message.split('\n')[0]})`);
    } finally {
      await plane.stop();
    }
  }
} finally {
  await browser.close();
}

console.log(`\n# bench:video — ${runs} requests a plane, ${windowMs / 1000} s windows`);
console.log(report.join('\n'));
console.log(
  `\nload average (1 min) during the run: ${loads.map((load) => load.toFixed(1)).join(', ')} on ${
    cpus().length
  } cores; Janus's CPU less its own with the phone publishing and no viewer, per viewer.`,
);
