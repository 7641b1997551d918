/**
 * Screenshots of members' statuses to look at (not a test), in French and English at 1400 and 390 px wide: the
 * dispatch console's tile with its members and their statuses, its map (a marker's popup open), and the users
 * list with its status column and filter; and a channel's participants in the console's room and on /talk. `npm run build && node e2e/statuses-live-screens.ts [outDir]` (default
 * test-results/statuses-live-screens).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { io } from 'socket.io-client';
import { chromiumLaunchOptions } from './chromium.ts';
import { type Account, createAdmin, seedFor, startServer } from './fixtures.ts';
import { openAs } from './room-support.ts';

const outDir = path.resolve(process.argv[2] ?? 'test-results/statuses-live-screens');
mkdirSync(outDir, { recursive: true });

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions());
const sockets: ReturnType<typeof io>[] = [];
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const quai = await seed.channel('Quai');
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Morel', role: 'dispatcher' });
  const people: Account[] = [];
  for (const [firstName, lastName, pseudo] of [
    ['Inès', 'Roux', 'ines'],
    ['Léa', 'Petit', 'lea'],
    ['Alex', 'Martin', 'alex'],
    ['Noah', 'Bernard', 'noah'],
    ['Yanis', 'Faure', 'yanis'],
  ])
    people.push(await seed.member({ firstName, lastName, pseudo }));
  await seed.addToChannel(
    quai.id,
    [dana, ...people].map((member) => member.id),
  );
  await server.call(
    '/user/api/setMonitorList',
    { channels: [{ channelId: quai.id, volume: 100, muted: false }], unselectedVolume: 40 },
    dana.token,
  );
  const statuses = (await server.call('/user/api/listStatuses', {}, admin.token)).body.res as Array<{
    id: number;
    label: { fr: string };
  }>;
  const id = (fr: string) => statuses.find((status) => status.label.fr === fr)?.id;
  const [ines, lea, alex, noah] = people as [Account, Account, Account, Account];
  await server.call('/user/api/setMyStatus', { statusId: id('Sur place') }, ines.token);
  await server.call('/user/api/setMyStatus', { statusId: id('Disponible') }, lea.token);
  await server.call('/user/api/setUserStatus', { userId: alex.id, statusId: id('En route') }, dana.token);
  await server.call('/user/api/setMyStatus', { statusId: id('En pause') }, noah.token);
  // Three phones in the channel, with positions near the quay.
  const spots = [
    [48.8606, 2.3376],
    [48.8585, 2.3452],
    [48.8549, 2.3499],
  ];
  for (const [index, member] of [ines, lea, alex].entries()) {
    const phone = io(server.baseURL, { query: { token: member.token }, transports: ['websocket'], forceNew: true });
    sockets.push(phone);
    const [lat, lng] = spots[index] as [number, number];
    phone.emit('onLocationChanged', { lat, lng });
    phone.emit('join_room', { room: quai.rtcSession, name: `${member.firstName} ${member.lastName}` });
  }

  for (const language of ['fr', 'en'] as const) {
    for (const width of [1400, 390]) {
      const suffix = `${language}-${width}`;
      const desk = await openAs(browser, server.baseURL, dana, { language, viewport: { width, height: 900 } });
      await shootDispatch(desk.page, suffix, language);
      await desk.close();
      const office = await openAs(browser, server.baseURL, admin, { language, viewport: { width, height: 900 } });
      await office.page.goto('/usersList');
      await office.page
        .getByRole('img', { name: /Sur place|On scene/ })
        .first()
        .waitFor({ timeout: 60_000 });
      await office.page.screenshot({ path: path.join(outDir, `users-${suffix}.png`), fullPage: true });
      await office.page
        .getByRole('combobox', { name: language === 'fr' ? 'Filtrer par statut' : 'Filter by status' })
        .click();
      await office.page.screenshot({ path: path.join(outDir, `users-filter-${suffix}.png`) });
      await office.close();
    }
  }
  // A channel's participants: the console's room (sidebar and table) and /talk's members tab.
  for (const language of ['fr', 'en'] as const) {
    const room = await openAs(browser, server.baseURL, admin, { language, viewport: { width: 1400, height: 900 } });
    await room.page.goto(`/groupCallView/${encodeURIComponent(quai.rtcSession)}`);
    await room.page
      .getByRole('img', { name: /Sur place|On scene/ })
      .first()
      .waitFor({ timeout: 60_000 });
    await room.page.screenshot({ path: path.join(outDir, `room-${language}-1400.png`), fullPage: true });
    await room.close();
    const talk = await openAs(browser, server.baseURL, ines, { language, viewport: { width: 390, height: 844 } });
    await talk.page.goto(`/talk/${quai.id}`);
    await talk.page.getByRole('tab', { name: language === 'fr' ? 'Membres' : 'Members' }).click();
    await talk.page
      .getByRole('img', { name: /Sur place|On scene/ })
      .first()
      .waitFor({ timeout: 60_000 });
    await talk.page.screenshot({ path: path.join(outDir, `talk-members-${language}-390.png`) });
    await talk.close();
  }
  console.log(`screenshots in ${outDir}`);
} finally {
  for (const socket of sockets) socket.disconnect();
  await browser.close();
  await server.stop();
}

async function shootDispatch(page: Page, suffix: string, language: 'fr' | 'en') {
  await page.goto('/dispatch');
  await page
    .getByRole('img', { name: /Sur place|On scene/ })
    .first()
    .waitFor({ timeout: 60_000 });
  await page.screenshot({ path: path.join(outDir, `dispatch-${suffix}.png`), fullPage: true });
  const tile = page.getByRole('region', { name: language === 'fr' ? 'Canal Quai' : 'Channel Quai' });
  await tile.screenshot({ path: path.join(outDir, `tile-${suffix}.png`) });
  const map = page.getByRole('region', {
    name: language === 'fr' ? 'Carte des membres du canal' : "Map of the channel's members",
  });
  await map.scrollIntoViewIfNeeded();
  const marker = page.locator('.tg-marker[data-status-id]').first();
  await marker.waitFor({ timeout: 60_000 });
  await marker.click();
  await page.getByTestId('marker-popup').waitFor();
  await map.screenshot({ path: path.join(outDir, `map-${suffix}.png`) });
}
