/**
 * Screenshots of the floor queue (issue 59) to look at and for the docs (not a test), in French: a member's
 * /talk (390x844) first in line behind the talker, with "Annuler", having let go (issue 70: the hint says the place
 * is kept); the dispatch console (1400x900) whose tile lists the two who wait, each with "Retirer … de la file";
 * then the member's turn, "À vous de parler" with its countdown (issue 70), and the turn missed, "Tour passé".
 * `node e2e/floor-queue-screens.ts [outDir]` after a web build (E2E_WEB_DIR, else packages/web/dist); with
 * `docs/images` as outDir it writes docs/images/talk-floor-queue.png, dispatch-floor-queue.png,
 * talk-floor-turn.png and talk-floor-turn-missed.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { createAdmin, seedFor, startServer } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

const outDir = path.resolve(process.argv[2] ?? 'test-results/floor-queue-screens');
mkdirSync(outDir, { recursive: true });
const TIMEOUT = { timeout: 60_000 };

/** Holds the talk button down (the page's own mouse). */
async function hold(page: Page, name: string): Promise<void> {
  const button = page.getByRole('button', { name });
  await button.waitFor(TIMEOUT);
  await page.waitForFunction(() => window.__talkgroupRoom?.micReady === true, undefined, TIMEOUT);
  await button.hover();
  await page.mouse.down();
}

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel('Quai');
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Martin', role: 'dispatcher' });
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Terrain' });
  const leo = await seed.member({ firstName: 'Léo', lastName: 'Garnier' });
  const ines = await seed.member({ firstName: 'Inès', lastName: 'Moreau' });
  await seed.addToChannel(channel.id, [dana.id, mia.id, leo.id, ines.id]);

  const desk = await openAs(browser, server.baseURL, dana, { language: 'fr', viewport: { width: 1400, height: 900 } });
  const talker = await openAs(browser, server.baseURL, mia, { language: 'fr' });
  const phone = await openAs(browser, server.baseURL, leo, { language: 'fr', viewport: { width: 390, height: 844 } });
  const second = await openAs(browser, server.baseURL, ines, { language: 'fr' });
  try {
    await desk.page.goto('/dispatch');
    await desk.page.getByRole('button', { name: /^Canaux écoutés/ }).click(TIMEOUT);
    const dialog = desk.page.getByRole('dialog', { name: 'Canaux écoutés' });
    await dialog.getByRole('checkbox', { name: `Écouter ${channel.name}` }).check();
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    const tile = desk.page.getByRole('region', { name: `Canal ${channel.name}` });
    await tile.waitFor(TIMEOUT);

    // Everyone in before Mia talks: the phone's "who talks" line follows the mic changes it hears.
    await phone.page.goto(`/talk/${channel.id}`);
    await second.page.goto(roomUrl(channel.rtcSession));
    await talker.page.goto(roomUrl(channel.rtcSession));
    for (const { page } of [phone, second]) {
      await page.waitForFunction(() => window.__talkgroupRoom?.micReady === true, undefined, TIMEOUT);
    }
    // Mia talks; Léo presses on his phone and waits first; Inès presses in the room and lets go: second.
    await hold(talker.page, 'Appuyer pour parler');
    await phone.page.getByText('Parle : Mia Terrain', { exact: true }).waitFor(TIMEOUT);
    await hold(phone.page, 'Appuyer pour parler');
    await phone.page.getByText('En attente (1er)').waitFor(TIMEOUT);
    // Léo lets go: he keeps his place, and the hint says so.
    await phone.page.mouse.up();
    await phone.page.getByText('Vous pouvez relâcher le bouton : vous gardez votre place.').waitFor(TIMEOUT);
    await hold(second.page, 'Appuyer pour parler');
    await second.page.getByText('En attente (2e)').waitFor(TIMEOUT);
    await second.page.mouse.up();

    await tile.getByRole('button', { name: 'Retirer Inès Moreau de la file' }).waitFor(TIMEOUT);
    await phone.page.screenshot({ path: path.join(outDir, 'talk-floor-queue.png') });
    await desk.page.screenshot({ path: path.join(outDir, 'dispatch-floor-queue.png') });

    // Mia lets go: Léo's turn, counted down; he does not press, and his turn passes.
    await talker.page.mouse.up();
    await phone.page.getByTestId('ptt-turn-countdown').waitFor(TIMEOUT);
    await phone.page.screenshot({ path: path.join(outDir, 'talk-floor-turn.png') });
    await phone.page.getByText('Tour passé', { exact: true }).waitFor(TIMEOUT);
    await phone.page.screenshot({ path: path.join(outDir, 'talk-floor-turn-missed.png') });
    console.log(`screenshots in ${outDir}`);
  } finally {
    for (const page of [desk, talker, phone, second]) await page.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
