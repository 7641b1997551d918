/**
 * Does the users page stay quick at the size of a real organisation? Real servers (the built web app, SQLite in
 * temp dirs), one seeded with 100 users (the baseline) and one for each size asked, measured in the same run
 * with the same Chromium, so that the ratio says what the team's size costs. Figures only, never pass/fail.
 * Up to 5,000 users (USERS_PAGED_ABOVE) the page loads the whole list and searches, sorts and pages in the
 * browser; past it, it asks the server for each page (getUsersPage). Goals (issue 18): first rows within 1 s
 * at 100,000 users, a filter keystroke painted within 50 ms at 10,000.
 *
 *   npm run build && npm run bench:users-page
 *   BENCH_USERS=5000,20000 npm run bench:users-page   other sizes (default 5000,10000,100000)
 *   E2E_WEB_DIR=/path/to/dist …                        another build of the web app (as the browser tests)
 *
 * Measured:
 * - the list call the page makes (getAllUsers, or getUsersPage past 5,000), server time and JSON size;
 * - time to first rows: from navigation to the first user row in the table (median of 5 loads);
 * - the page's scripts (the entry script alone, and all of them): their size, the bytes sent on a first visit
 *   (precompressed .br/.gz) and on the next one (hashed names cached for good: nothing);
 * - filter keystroke: from the input event to the painted table that reflects it (the row count or the
 *   rows change on each measured keystroke), and the longest main-thread task meanwhile;
 * - sort click: from the click on a column header to the painted, re-sorted table;
 * - import preview: from choosing an .xlsx file (100 rows vs 5,000 rows) to its preview table, and the
 *   longest main-thread task meanwhile (the page must not freeze).
 * The users are written straight into the database with one shared password hash: hashing 10,000 passwords
 * through the API would take minutes and is not what is measured here.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { USERS_PAGED_ABOVE } from '@talkgroup/protocol';
import ExcelJS from 'exceljs';
import { chromiumLaunchOptions } from '../../e2e/chromium.ts';
import { type Account, createAdmin, startServer, type TalkgroupServer } from '../../e2e/fixtures.ts';
import { type Figures, type ImportFigures, printReport, type ScriptBytes } from './report.ts';
import { seed } from './seed.ts';

const BASELINE = 100;
const TARGETS = (process.env.BENCH_USERS ?? '5000,10000,100000').split(',').map(Number);
const LOADS = 5;
/** Each group: a prefix set at once, then keystrokes that each narrow the match (and so change the table). */
const KEYSTROKES = [
  ['bench', '1', '2', '3'],
  ['bench', '4', '5', '6'],
  ['bench', '7', '8', '9'],
];
const IMPORT_ROWS = [100, 5_000];

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The call the page makes for its rows: the whole list, or past USERS_PAGED_ABOVE users its first page. */
async function timeListCall(server: TalkgroupServer, admin: Account, users: number) {
  const paged = users > USERS_PAGED_ABOVE;
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < 5; round++) {
    const started = performance.now();
    const response = await fetch(`${server.baseURL}/user/api/${paged ? 'getUsersPage' : 'getAllUsers'}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-token': admin.token },
      body: paged ? JSON.stringify({ start: 0, limit: 5 }) : '{}',
    });
    bytes = (await response.arrayBuffer()).byteLength;
    times.push(performance.now() - started);
  }
  return { ms: median(times), bytes };
}

async function signedInPage(server: TalkgroupServer, admin: Account): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 }, baseURL: server.baseURL });
  await context.addInitScript((account) => {
    localStorage.setItem('i18nextLng', 'fr');
    localStorage.setItem('id', String(account.id));
    localStorage.setItem('firstName', account.firstName);
    localStorage.setItem('lastName', account.lastName);
    localStorage.setItem('role', 'admin');
    sessionStorage.setItem('TOKEN_KEY', account.token);
  }, admin);
  // Long tasks of the whole visit, read by the measurements below.
  await context.addInitScript(() => {
    const w = window as unknown as { longTasks: Array<{ start: number; duration: number }> };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
  return context.newPage();
}

/** The first row of the users table: its first cell is the selection box, the second the first name. */
const FIRST_ROW = 'main tbody tr td:nth-child(2)';

/** What the page's scripts weigh and what crossed the wire for them (resource timing, headers included). */
async function scriptsLoaded(page: Page) {
  return page.evaluate(() => {
    return performance
      .getEntriesByType('resource')
      .filter((entry): entry is PerformanceResourceTiming => /\/assets\/[^/]+\.js$/.test(entry.name))
      .map((entry) => ({ name: entry.name, decoded: entry.decodedBodySize, sent: entry.transferSize }));
  });
}

async function timeFirstRows(page: Page): Promise<{ ms: number; scripts: ScriptBytes }> {
  const times: number[] = [];
  const scripts: ScriptBytes = {
    entry: { decoded: 0, sent: 0, sentAgain: 0 },
    all: { decoded: 0, sent: 0, sentAgain: 0 },
  };
  for (let load = 0; load <= LOADS; load++) {
    await page.goto('/usersList');
    await page
      .waitForFunction(
        (selector) => /^(Ada|First)/.test(document.querySelector(selector)?.textContent ?? ''),
        FIRST_ROW,
        { polling: 'raf', timeout: 60_000 },
      )
      .catch(async (error) => {
        await page.screenshot({ path: path.join(tmpdir(), 'users-page-bench-failure.png') });
        console.log(await page.evaluate(() => document.querySelector('main')?.textContent.slice(0, 500)));
        throw error;
      });
    const ms = await page.evaluate(() => performance.now());
    if (load > 0) times.push(ms); // the first load fills the browser's cache
    if (load <= 1) {
      for (const script of await scriptsLoaded(page)) {
        const isEntry = /\/assets\/index-[^/]+\.js$/.test(script.name);
        for (const sum of isEntry ? [scripts.entry, scripts.all] : [scripts.all]) {
          if (load === 0) {
            sum.decoded += script.decoded;
            sum.sent += script.sent;
          } else sum.sentAgain += script.sent;
        }
      }
    }
  }
  return { ms: median(times), scripts };
}

/** Changes the search box as typing does, then waits for the painted table to differ. */
async function keystroke(page: Page, text: string, append: boolean) {
  return page.evaluate(
    async ({ text, append }) => {
      const w = window as unknown as { longTasks: Array<{ start: number; duration: number }> };
      const input = document.querySelector<HTMLInputElement>('main input[type=search]');
      const table = document.querySelector<HTMLElement>('main .MuiPaper-root');
      if (!input || !table) throw new Error('no search box or table');
      const before = table.textContent;
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      const started = performance.now();
      setValue?.call(input, append ? input.value + text : text);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise<void>((resolve, reject) => {
        const deadline = started + 20_000;
        const check = () => {
          if (table.textContent !== before) resolve();
          else if (performance.now() > deadline) reject(new Error(`the table did not change for "${input.value}"`));
          else requestAnimationFrame(check);
        };
        check();
      });
      // The frame after the change is the one the eye sees.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      const ended = performance.now();
      const longest = Math.max(
        0,
        ...w.longTasks.filter((t) => t.start + t.duration >= started && t.start <= ended).map((t) => t.duration),
      );
      return { ms: ended - started, longest };
    },
    { text, append },
  );
}

async function timeFiltering(page: Page) {
  const samples: number[] = [];
  let longest = 0;
  for (const [prefix, ...keys] of KEYSTROKES) {
    await keystroke(page, prefix, false);
    for (const key of keys) {
      const measured = await keystroke(page, key, true);
      samples.push(measured.ms);
      longest = Math.max(longest, measured.longest);
    }
  }
  await keystroke(page, '', false);
  return { median: median(samples), max: Math.max(...samples), longest };
}

async function timeSorting(page: Page) {
  const samples: number[] = [];
  for (let click = 0; click < 3; click++) {
    const measured = await page.evaluate(async () => {
      const header = [...document.querySelectorAll<HTMLElement>('main thead th')].find((th) =>
        th.textContent.includes('Prénom'),
      );
      const label = header?.querySelector<HTMLElement>('.Mui-TableHeadCell-Content-Labels');
      const body = document.querySelector<HTMLElement>('main tbody');
      if (!label || !body) throw new Error('no header or body');
      const before = body.textContent;
      const started = performance.now();
      label.click();
      await new Promise<void>((resolve) => {
        const check = () => (body.textContent !== before ? resolve() : requestAnimationFrame(check));
        check();
      });
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return performance.now() - started;
    });
    samples.push(measured);
  }
  return median(samples);
}

async function importFile(rows: number): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Import');
  sheet.addRow(['firstName', 'lastName', 'identifier', 'pseudo', 'password', 'mapRight', 'canal']);
  for (let i = 0; i < rows; i++)
    sheet.addRow([`Imp${i}`, `Lot`, `imp${i}@example.org`, `i${i}`, 'pw', i % 2 ? 'vrai' : 'FAUX', 'Canal 1;Canal 2']);
  const file = path.join(workDir, `import-${rows}.xlsx`);
  writeFileSync(file, Buffer.from(await workbook.xlsx.writeBuffer()));
  return file;
}

async function timeImportPreview(page: Page, file: string, rows: number) {
  await page.goto('/usersList');
  await page.waitForSelector(FIRST_ROW);
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('main').getByRole('button', { name: 'Importer' }).click(),
  ]);
  const started = await page.evaluate(() => performance.now());
  await chooser.setFiles(file);
  await page
    .getByText(`${rows.toLocaleString('fr-FR').replace(/\s/g, ' ')} lignes lues`)
    .or(page.getByText(`${rows} lignes lues`))
    .waitFor({ timeout: 120_000 });
  return page.evaluate((started) => {
    const ended = performance.now();
    const w = window as unknown as { longTasks: Array<{ start: number; duration: number }> };
    const longest = Math.max(0, ...w.longTasks.filter((t) => t.start >= started - 50).map((t) => t.duration));
    return { ms: ended - started, longest };
  }, started);
}

async function measure(users: number): Promise<Figures> {
  const server = await startServer();
  try {
    const admin = await createAdmin(server);
    process.stdout.write(`seeding ${users} users… `);
    seed(server, admin, users - 1);
    const api = await timeListCall(server, admin, users);
    const page = await signedInPage(server, admin);
    process.stdout.write('page… ');
    const { ms: firstRowsMs, scripts } = await timeFirstRows(page);
    process.stdout.write('filter… ');
    const filter = await timeFiltering(page);
    process.stdout.write('sort… ');
    const sortMs = await timeSorting(page);
    console.log('done');
    await page.context().close();
    return { users, apiMs: api.ms, apiBytes: api.bytes, firstRowsMs, filter, sortMs, scripts };
  } finally {
    await server.stop();
  }
}

async function measureImports() {
  const server = await startServer();
  try {
    const admin = await createAdmin(server);
    const page = await signedInPage(server, admin);
    const results: ImportFigures[] = [];
    for (const rows of IMPORT_ROWS) {
      const file = await importFile(rows);
      await timeImportPreview(page, file, rows); // warm: ExcelJS's chunk in the cache
      results.push({ rows, ...(await timeImportPreview(page, file, rows)) });
    }
    await page.context().close();
    return results;
  } finally {
    await server.stop();
  }
}

const workDir = mkdtempSync(path.join(tmpdir(), `talkgroup-bench-${randomBytes(3).toString('hex')}-`));
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  console.log(
    `users page bench: ${BASELINE} users (baseline) vs ${TARGETS.join(', ')} users; load average ${loadavg()[0].toFixed(1)}`,
  );
  const base = await measure(BASELINE);
  const sizes: Figures[] = [];
  for (const users of TARGETS) sizes.push(await measure(users));
  const imports = await measureImports();
  printReport(base, sizes, imports);
} finally {
  await browser.close();
  rmSync(workDir, { recursive: true, force: true });
}
