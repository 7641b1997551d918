/**
 * How many script files the console's room page costs on a first visit (issue 48): a real server serving a
 * built web app, a fresh Chromium context (empty cache), and the distinct .js files the page fetches:
 *   - the sign-in path: /signin, the form submitted, the channels list shown, then a click on a channel's row
 *     that opens its room (the way an administrator gets there); scripts counted per step;
 *   - the room opened directly: a signed-in session in storage and /groupCallView/<rtcSession> typed in;
 *   - a member's phone opening that channel in the members' app (/talk/<id>), to see what the grouping costs it.
 * A page counts as shown when its content is there, the network is idle and no new script has been asked for
 * 3 s (lazy parts such as the room's map count too). Each build given is measured in the same run, so that a
 * before and an after print side by side. Figures only, never pass/fail.
 *
 *   npm run build && npm run bench:room-chunks                      packages/web/dist (or E2E_WEB_DIR)
 *   npm run bench:room-chunks -- /tmp/web-before /tmp/web-after     several builds, one row each
 *   npm run bench:room-chunks -- --list                               and the files of the direct visits
 */
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const builds = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (builds.length === 0) builds.push(process.env.E2E_WEB_DIR ?? path.join(ROOT, 'packages/web/dist'));
// The fixtures read E2E_WEB_DIR when they load: the first build, then WEB_DIR per server.
process.env.E2E_WEB_DIR = path.resolve(builds[0]);
const { createAdmin, seedFor, startIn, startServer, useSession } = await import('../../e2e/fixtures.ts');

const LIST = process.argv.includes('--list');
/** Scripts counted as the room's own once none has been asked for this long. */
const QUIET_MS = 3000;

/** The distinct scripts a context fetched, in order, with their bytes on the wire (compressed). */
function scriptLog(context: BrowserContext) {
  const seen = new Map<string, number>();
  let lastAt = Date.now();
  // A build whose chunks do not run shows nothing: say why rather than time out in silence.
  // (Init scripts also run in about:blank, where storage is refused: only the app's own pages count.)
  context.on('weberror', (error) => {
    if (error.page()?.url().startsWith('http')) console.error(`page error: ${error.error().message}`);
  });
  context.on('requestfinished', async (request) => {
    // The /talk pages' service worker precaches every script: what it fetches is not what the page asked for.
    if (request.serviceWorker()) return;
    const { pathname } = new URL(request.url());
    if (!pathname.endsWith('.js') || pathname.endsWith('sw.js') || pathname.startsWith('/workbox-')) return;
    lastAt = Date.now();
    if (seen.has(pathname)) return;
    seen.set(pathname, 0);
    const sizes = await request.sizes().catch(() => undefined);
    seen.set(pathname, sizes?.responseBodySize ?? 0);
  });
  return {
    step: (): Step => ({ files: seen.size, kb: [...seen.values()].reduce((sum, bytes) => sum + bytes, 0) / 1024 }),
    names: () => [...seen.keys()].map((pathname) => pathname.replace(/^\/assets\//, '')),
    /** Resolves once the page's network is idle and no script was asked for QUIET_MS. */
    async quiet(page: Page) {
      await page.waitForLoadState('networkidle');
      while (Date.now() - lastAt < QUIET_MS) await new Promise((resolve) => setTimeout(resolve, 100));
    },
  };
}

/** Distinct scripts so far and the KB they took on the wire. */
interface Step {
  files: number;
  kb: number;
}

interface Row {
  build: string;
  channels: Step;
  room: Step;
  direct: Step;
  talk: Step;
}

async function roomShown(page: Page, channelName: string) {
  await page.getByRole('region', { name: `Users in ${channelName}` }).waitFor({ timeout: 60_000 });
}

async function measure(browser: Browser, build: string): Promise<Row> {
  const server = await startServer({ WEB_DIR: path.resolve(build) });
  try {
    const admin = await createAdmin(server);
    const seed = seedFor(server, admin);
    const channel = await seed.channel('Room chunks');
    const member = await seed.member({ firstName: 'Mia', lastName: 'Chunks' });
    await seed.addToChannel(channel.id, [member.id]);
    const newContext = async (viewport = { width: 1600, height: 900 }) => {
      const context = await browser.newContext({ baseURL: server.baseURL, viewport });
      await startIn(context, 'en');
      return { context, scripts: scriptLog(context), page: await context.newPage() };
    };

    // Through the sign-in form, the channels list and a click on the channel's row.
    const visit = await newContext();
    const { page, scripts } = visit;
    await page.goto('/signin');
    await page.getByRole('textbox', { name: 'Login', exact: true }).fill(admin.login);
    // (The sign-in page prefetches the shell and the channels list once idle: they count with the list.)
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('cell', { name: channel.name, exact: true }).waitFor({ timeout: 60_000 });
    await scripts.quiet(page);
    const channels = scripts.step();
    await page.getByRole('cell', { name: channel.name, exact: true }).click();
    await roomShown(page, channel.name);
    await scripts.quiet(page);
    const room = scripts.step();
    await visit.context.close();

    // The room's address opened in a new tab of a signed-in session.
    const direct = await newContext();
    await useSession(direct.page, admin);
    await direct.page.goto(`/groupCallView/${encodeURIComponent(channel.rtcSession)}`);
    await roomShown(direct.page, channel.name);
    await direct.scripts.quiet(direct.page);
    if (LIST) console.log(`${build}, the room opened directly:\n  ${direct.scripts.names().join('\n  ')}`);
    await direct.context.close();

    // A member's phone opening the channel in the members' app, to see what the room's grouping costs it.
    const phone = await newContext({ width: 390, height: 844 });
    await useSession(phone.page, member);
    await phone.page.goto(`/talk/${channel.id}`);
    await phone.page.getByRole('heading', { level: 1, name: channel.name }).waitFor({ timeout: 60_000 });
    await phone.scripts.quiet(phone.page);
    const talk = phone.scripts.step();
    if (LIST) console.log(`${build}, a member's /talk channel:\n  ${phone.scripts.names().join('\n  ')}`);
    await phone.context.close();
    return { build, channels, room, direct: direct.scripts.step(), talk };
  } finally {
    await server.stop();
  }
}

const browser = await chromium.launch(
  chromiumLaunchOptions(['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']),
);
const rows: Row[] = [];
try {
  for (const build of builds) rows.push(await measure(browser, build));
} finally {
  await browser.close();
}

const cell = (step: Step, width: number) => `${step.files} (${step.kb.toFixed(0)} KB)`.padStart(width);
console.log(
  'Script files fetched on a first visit (empty cache): distinct .js (KB on the wire), service worker excluded',
);
console.log(
  `${'build'.padEnd(32)} | /signin, channels list | + room (total) | room opened directly | member's /talk channel`,
);
for (const r of rows)
  console.log(
    `${r.build.padEnd(32)} | ${cell(r.channels, 22)} | ${cell(r.room, 14)} | ${cell(r.direct, 20)} | ${cell(r.talk, 22)}`,
  );
process.exit(0);
