/**
 * Screenshots of the dispatch console's call queue to look at (not a test), in French and English at 1400 and
 * 390 px wide: three members waiting (one urgent with a note, one recalled after DISPATCH_REMIND_SECONDS), one
 * taken by another dispatcher, one closed. `npm run build && node e2e/dispatch-queue-screens.ts [outDir]`
 * (default test-results/dispatch-queue-screens); `--docs` also writes docs/images/dispatch-queue.png.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { io } from 'socket.io-client';
import { chromiumLaunchOptions } from './chromium.ts';
import { type Account, createAdmin, seedFor, startServer } from './fixtures.ts';
import { openAs } from './room-support.ts';

const args = process.argv.slice(2);
const outDir = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? 'test-results/dispatch-queue-screens');
mkdirSync(outDir, { recursive: true });

const server = await startServer({ DISPATCH_REMIND_SECONDS: '100' });
const browser = await chromium.launch(chromiumLaunchOptions());
const sockets: ReturnType<typeof io>[] = [];
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const quai = await seed.channel('Quai');
  const atelier = await seed.channel('Atelier');
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Morel', role: 'dispatcher' });
  const sam = await seed.member({ firstName: 'Sam', lastName: 'Leroy', role: 'dispatcher' });
  const people: Account[] = [];
  for (const [firstName, lastName] of [
    ['Inès', 'Roux'],
    ['Léa', 'Petit'],
    ['Alex', 'Martin'],
    ['Noah', 'Bernard'],
    ['Yanis', 'Faure'],
  ])
    people.push(await seed.member({ firstName, lastName }));
  const [ines, lea, alex, noah, yanis] = people as [Account, Account, Account, Account, Account];
  await seed.addToChannel(quai.id, [dana.id, sam.id, ines.id, lea.id, alex.id, yanis.id]);
  await seed.addToChannel(atelier.id, [dana.id, sam.id, noah.id]);
  // Members stay connected, as their phones would (an offline member's request is abandoned).
  for (const member of people)
    sockets.push(io(server.baseURL, { query: { token: member.token }, transports: ['websocket'] }));
  await server.call(
    '/user/api/setMonitorList',
    { channels: [{ channelId: quai.id }, { channelId: atelier.id }], unselectedVolume: 40 },
    dana.token,
  );

  const ask = async (member: Account, channelId: number, priority: 'normal' | 'high', note = '') => {
    const { body } = await server.call('/user/api/requestDispatchCall', { channelId, priority, note }, member.token);
    return body.res.requestId as number;
  };
  // Yanis's request was handled and closed earlier; Lea's waits long enough to be recalled.
  const closed = await ask(yanis, quai.id, 'normal', 'Badge perdu');
  await server.call('/user/api/takeDispatchCall', { requestId: closed, answer: 'channel' }, sam.token);
  await server.call('/user/api/closeDispatchCall', { requestId: closed }, sam.token);
  await ask(lea, quai.id, 'normal');
  await new Promise((resolve) => setTimeout(resolve, 102_000));
  const taken = await ask(ines, quai.id, 'normal', 'Besoin d’un cariste');
  await server.call('/user/api/takeDispatchCall', { requestId: taken, answer: 'private' }, sam.token);
  await ask(noah, atelier.id, 'normal', 'Livraison en retard');
  await ask(alex, quai.id, 'high', 'Chariot en panne au quai 3, charge instable');

  for (const language of ['fr', 'en'] as const) {
    for (const [device, viewport] of Object.entries({
      wide: { width: 1400, height: 1000 },
      phone: { width: 390, height: 844 },
    })) {
      const desk = await openAs(browser, server.baseURL, dana, { language, viewport });
      const { page } = desk;
      await page.goto('/dispatch');
      const title = language === 'fr' ? "File d'attente" : 'Call queue';
      const queue = page.getByRole('region', { name: title, exact: true });
      await queue.getByRole('listitem').filter({ hasText: 'Alex Martin' }).waitFor();
      await queue
        .getByText(language === 'fr' ? 'Attente longue' : 'Long wait')
        .first()
        .waitFor();
      await page.waitForTimeout(2500); // the waiting times tick a little, transitions end
      const file = path.join(outDir, `${language}-${device}.png`);
      await page.screenshot({ path: file, fullPage: device === 'phone' });
      if (device === 'wide') await queue.screenshot({ path: path.join(outDir, `${language}-${device}-queue.png`) });
      if (language === 'en' && device === 'wide' && args.includes('--docs'))
        copyFileSync(file, path.resolve('docs/images/dispatch-queue.png'));
      await desk.close();
    }
  }
} finally {
  for (const socket of sockets) socket.disconnect();
  await browser.close();
  await server.stop();
}
