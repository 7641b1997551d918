/**
 * Screenshots to look at (not a test): the dashboard, its activities dialog and the Activities page with its
 * delete confirmation, in French and English, at 1280x800 and 390x844, on a seeded team.
 * `npm run build && node e2e/activity-screens.ts [outDir]` (default test-results/screens).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { DAY_MS, HOUR_MS, openServerDatabase, type SeedActivity } from './database.ts';
import { createAdmin, seedFor, startServer } from './fixtures.ts';

const outDir = path.resolve(process.argv[2] ?? 'test-results/screens');
mkdirSync(outDir, { recursive: true });

const FIRST_NAMES = ['Chloé', 'Hugo', 'Léa', 'Malik', 'Inès', 'Tom', 'Sarah', 'Yanis', 'Emma', 'Noah', 'Jade', 'Louis'];
const CHANNELS = ['Équipe Alpha', 'Logistique', 'Sécurité site', 'Maintenance', 'Accueil', 'Nuit', 'Direction'];
const TYPES = ['login', 'logout', 'channel_join', 'channel_talk', 'channel_leave', 'message_send', 'image_send'];

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const database = openServerDatabase(server);
  const now = Date.now();
  const members = [];
  for (const [i, firstName] of FIRST_NAMES.entries()) {
    const member = await seed.member({ firstName, lastName: ['Martin', 'Bernard', 'Petit', 'Durand'][i % 4] });
    database.setCreatedAt('users', member.id, new Date(now - ((i * 37) % 14) * DAY_MS - 3 * HOUR_MS));
    members.push(member);
  }
  database.setCreatedAt('users', admin.id, new Date(now - 60 * DAY_MS));
  const channels = [];
  for (const [i, name] of CHANNELS.entries()) {
    const channel = await seed.channel(name);
    await seed.addToChannel(
      channel.id,
      members.filter((_, m) => m % (i + 1) === 0).map((m) => m.id),
    );
    database.setCreatedAt('channels', channel.id, new Date(now - (i * 3 + 1) * DAY_MS));
    channels.push(channel);
  }
  const log: SeedActivity[] = [];
  for (let i = 0; i < 140; i++) {
    const member = members[(i * 7) % members.length];
    const channel = channels[(i * 3) % channels.length];
    log.push({
      type: TYPES[i % TYPES.length],
      createdAt: new Date(now - (140 - i) * 5 * HOUR_MS),
      user: { id: member.id, firstName: member.firstName, lastName: member.lastName },
      channel: { id: channel.id, name: channel.name },
    });
  }
  database.insertActivities(log);
  database.close();

  const viewports = { desktop: { width: 1280, height: 800 }, mobile: { width: 390, height: 844 } };
  for (const language of ['fr', 'en'] as const) {
    for (const [device, viewport] of Object.entries(viewports)) {
      const context = await browser.newContext({ viewport, baseURL: server.baseURL });
      await context.addInitScript(
        ({ lng, account }) => {
          localStorage.setItem('i18nextLng', lng);
          localStorage.setItem('id', String(account.id));
          localStorage.setItem('firstName', account.firstName);
          localStorage.setItem('lastName', account.lastName);
          localStorage.setItem('role', account.role);
          sessionStorage.setItem('TOKEN_KEY', account.token);
        },
        { lng: language, account: admin },
      );
      const page = await context.newPage();
      const shot = async (name: string, fullPage = false) => {
        await page.waitForTimeout(600);
        await page.screenshot({ path: path.join(outDir, `${name}-${language}-${device}.png`), fullPage });
      };
      await page.goto('/dashboard');
      await page.getByRole('img').first().waitFor();
      await page.locator('main li').first().waitFor();
      await shot('dashboard', true);
      await page.getByRole('button', { name: /Parcourir toutes les activités|Browse all activities/ }).click();
      await page.getByRole('dialog').waitFor();
      await shot('dashboard-dialog');
      await page.keyboard.press('Escape');
      await page.goto('/activities?page=2');
      await page.locator('main ol li').first().waitFor();
      await shot('activities', true);
      await page.getByRole('button', { name: /^(Supprimer|Delete)$/ }).click();
      await page.getByRole('menuitem').first().click();
      await page.getByRole('alertdialog').waitFor();
      await shot('activities-confirm');
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
console.log(`screenshots in ${outDir}`);
