/**
 * Screenshots of the channel room to look at (not a test): the group call view with a talking peer, the
 * chat, the map, the dialogs, and the phone views, in French and English, at 1280x800 and 390x844.
 * `npm run build && node e2e/room-screens.ts [outDir]` (default test-results/room-screens).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { io } from 'socket.io-client';
import { chromiumLaunchOptions } from './chromium.ts';
import { createAdmin, seedFor, startServer } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

const outDir = path.resolve(process.argv[2] ?? 'test-results/room-screens');
mkdirSync(outDir, { recursive: true });

const server = await startServer();
const browser = await chromium.launch(chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)));
/** A 160x100 PNG with a gradient, so that the chat shows a picture. */
function picture(width = 160, height = 100): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x += 1) row.set([30 + x, 90 + y, 140], 1 + x * 3);
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PNG = picture();
try {
  const admin = await createAdmin(server);
  const seed = seedFor(server, admin);
  const channel = await seed.channel('Équipe Nord');
  const bea = await seed.member({ firstName: 'Béatrice', lastName: 'Martin', pseudo: 'bea', mapRight: true });
  const carl = await seed.member({ firstName: 'Carl', lastName: 'Dupont', pseudo: 'carlito' });
  const dana = await seed.member({ firstName: 'Dana', lastName: 'Lefèvre', pseudo: 'dana' });
  await seed.addToChannel(channel.id, [bea.id, carl.id, dana.id]);
  const phones = [carl, dana].map((member) =>
    io(server.baseURL, { query: { token: member.token }, transports: ['websocket'], forceNew: true }),
  );
  phones[0].emit('onLocationChanged', { lat: 48.8606, lng: 2.3376 });
  phones[0].emit('join_room', { room: channel.rtcSession, name: 'Carl' });
  phones[1].emit('onLocationChanged', { lat: 48.853, lng: 2.3499 });
  await server.call(
    '/user/api/sendMessageToChannel',
    { channelId: channel.id, message: 'On arrive au point B.' },
    bea.token,
  );
  await server.call(
    '/user/api/sendMessageToChannel',
    { channelId: channel.id, message: 'Bien reçu, <b>on attend</b> ici.' },
    admin.token,
  );
  const form = new FormData();
  form.append('channelId', String(channel.id));
  form.append('textMsg', 'Plan du site');
  form.append('image', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'plan.png');
  await fetch(`${server.baseURL}/user/api/uploadFile`, {
    method: 'POST',
    headers: { 'x-access-token': carl.token },
    body: form,
  });

  // Béatrice is in the room and talks.
  const talker = await openAs(browser, server.baseURL, bea);
  await talker.page.goto(roomUrl(channel.rtcSession));
  const ptt = talker.page.getByRole('button', { name: /Push to talk/ });
  await ptt.waitFor();

  const shot = async (page: Page, name: string) => {
    await page.waitForTimeout(600);
    await page.screenshot({ path: path.join(outDir, `${name}.png`) });
  };

  for (const language of ['fr', 'en'] as const) {
    for (const [device, viewport] of Object.entries({
      desktop: { width: 1280, height: 800 },
      mobile: { width: 390, height: 844 },
    })) {
      const tag = `${language}-${device}`;
      const a = await openAs(browser, server.baseURL, admin, { language, viewport });
      const page = a.page;
      await page.goto(roomUrl(channel.rtcSession));
      await page.getByRole('listitem', { name: 'Béatrice Martin' }).waitFor();
      await ptt.hover();
      await talker.page.mouse.down();
      await page.locator('[data-talking="true"]').waitFor();
      await shot(page, `room-${tag}`);
      await talker.page.mouse.up();
      await page.getByRole('region', { name: /Carte des membres|Map of the channel/ }).scrollIntoViewIfNeeded();
      await page.getByRole('button', { name: /^Carl Dupont, / }).click();
      await shot(page, `room-map-${tag}`);
      await page.getByRole('row', { name: /Dana Lefèvre/ }).click();
      await page.getByRole('row', { name: /Béatrice Martin/ }).click();
      await shot(page, `room-unknown-location-${tag}`);
      await page.keyboard.press('Escape');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.getByRole('button', { name: 'Messages' }).click();
      await shot(page, `room-chat-${tag}`);
      await page.getByRole('button', { name: /Envoyer une image|Send an image/ }).click();
      await page
        .getByLabel(/Fichier image|Image file/)
        .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
      await shot(page, `room-upload-${tag}`);
      await page.keyboard.press('Escape');
      await page.goto(`/mobileCallView/${channel.rtcSession}`);
      await page.getByRole('tab').first().waitFor();
      await shot(page, `mobile-${tag}`);
      const data = encodeURIComponent(JSON.stringify({ channelId: channel.id, userId: admin.id, token: admin.token }));
      await page.goto(`/userCallView/${data}`);
      await shot(page, `usercall-${tag}`);
      await page.goto(`/join/${channel.rtcSession}`);
      await page.getByTestId('local-preview').waitFor();
      await shot(page, `join-${tag}`);
      await a.close();
    }
  }
  for (const phone of phones) phone.disconnect();
  await talker.close();
  console.log(`screenshots in ${outDir}`);
} finally {
  await browser.close();
  await server.stop();
}
