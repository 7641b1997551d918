/** The room's messaging panel between two signed-in pages: text, typing, images, deletion. */
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect, test } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { openAs, roomUrl, TONE_WAV } from './room-support.ts';

// A busy machine may be slow: wait on states, with deadlines to match.
const expect = baseExpect.configure({ timeout: 60_000 });

test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)) });
test.describe.configure({ timeout: 180_000 });

/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('text and images go both ways live, with typing, own label, and deletion after a confirmation', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Reader' });
  await seed.addToChannel(channel.id, [bea.id]);
  await server.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: 'Earlier news' }, bea.token);

  // A on a wide screen (the panel is a wide column), B on a 1280 px laptop (a narrower column, opened by a button).
  const a = await openAs(browser, server.baseURL, admin, { viewport: { width: 1600, height: 900 } });
  const b = await openAs(browser, server.baseURL, bea);
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    await b.page.goto(roomUrl(channel.rtcSession));
    const chatA = a.page.getByRole('region', { name: 'Messages' });
    await expect(chatA).toBeVisible();
    await b.page.getByRole('button', { name: 'Messages' }).click();
    const chatB = b.page.getByRole('region', { name: 'Messages' });
    await expect(chatB).toBeVisible();

    // History: the earlier message, with its author's name; the author sees 'Me'.
    await expect(chatA.getByRole('listitem', { name: 'Message from Bea Reader' })).toContainText('Earlier news');
    await expect(chatB.getByRole('listitem', { name: 'Message from Me' })).toContainText('Earlier news');

    // Blank is not sent.
    const inputA = chatA.getByRole('textbox', { name: 'Message' });
    await inputA.fill('   ');
    await expect(chatA.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();

    // Typing shows at B, then clears after 3 s without more typing.
    await inputA.fill('');
    await inputA.pressSequentially('Hello <b>team</b> & co');
    await expect(chatB.getByTestId('typing-indicator')).toHaveText('Ada Lovelace is typing…');
    await expect(chatB.getByTestId('typing-indicator')).toHaveText('', { timeout: 60_000 });

    // Sent with Enter: B receives it live, as text (markup shows as characters).
    await inputA.press('Enter');
    await expect(inputA).toHaveValue('');
    const atB = chatB.getByRole('listitem', { name: 'Message from Ada Lovelace' }).last();
    await expect(atB.getByTestId('message-text')).toHaveText('Hello <b>team</b> & co');
    await expect(atB.locator('b')).toHaveCount(0);
    await expect(chatA.getByRole('listitem', { name: 'Message from Me' }).last()).toContainText('Hello <b>team</b>');
    // Time as 'd MMM, HH:mm' (issue 70: no space before the comma).
    await expect(atB.locator('time')).toHaveText(/^\d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2}$/);

    // An image from B through the paperclip dialog arrives at A with a download icon.
    await chatB.getByRole('button', { name: 'Send an image' }).click();
    const dialog = b.page.getByRole('dialog', { name: 'Send an image' });
    await dialog
      .getByLabel('Image file')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hi') });
    await expect(dialog.getByRole('alert')).toHaveText('Invalid file');
    await dialog.getByLabel('Image file').setInputFiles({
      name: 'huge.png',
      mimeType: 'image/png',
      buffer: Buffer.concat([PNG, Buffer.alloc(1024 * 1024)]),
    });
    await expect(dialog.getByRole('alert')).toHaveText('The file exceeds 1 MB.');
    await expect(dialog.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    // Dropped on the zone, like a file dragged from the desktop.
    const dropped = await b.page.evaluateHandle(
      (bytes) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(bytes)], 'map.png', { type: 'image/png' }));
        return transfer;
      },
      [...PNG],
    );
    await dialog.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer: dropped });
    await expect(dialog.getByRole('img', { name: 'map.png' })).toBeVisible();
    await dialog.getByLabel('Text with the image (optional)').fill('Where we meet');
    await dialog.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(dialog).toBeHidden();
    const imageAtA = chatA.getByRole('listitem', { name: 'Message from Bea Reader' }).last();
    await expect(imageAtA).toContainText('Where we meet');
    await expect(imageAtA.getByRole('img', { name: 'map.png' })).toBeVisible();
    await expect
      .poll(() => imageAtA.getByRole('img', { name: 'map.png' }).evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBe(1);
    const download = imageAtA.getByRole('link', { name: 'Download map.png' });
    await expect(download).toHaveAttribute('href', /^\/files\//);
    const href = (await download.getAttribute('href')) ?? '';
    const fetched = await a.page.evaluate(async (url) => (await fetch(url)).status, href);
    expect(fetched).toBe(200);

    // B deletes its image: 'Are you sure?' first, then it goes at both ends.
    const imageAtB = chatB.getByRole('listitem', { name: 'Message from Me' }).last();
    await imageAtB.getByRole('button', { name: 'Delete' }).click();
    const confirm = b.page.getByRole('alertdialog', { name: 'Are you sure?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(imageAtB).toContainText('Where we meet');
    await imageAtB.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(chatB.getByText('Where we meet')).toHaveCount(0);
    await expect(chatA.getByText('Where we meet')).toHaveCount(0);
  } finally {
    await a.close();
    await b.close();
  }
});

test('the panel shows in French with the French time format and can be hidden', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  await server.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: 'Bonjour' }, admin.token);
  const a = await openAs(browser, server.baseURL, admin, { language: 'fr', viewport: { width: 1600, height: 900 } });
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    const chat = a.page.getByRole('region', { name: 'Messages' });
    const own = chat.getByRole('listitem', { name: 'Message de Moi' });
    await expect(own).toContainText('Bonjour');
    // French month abbreviations end with a dot or are short words ('janv.', 'mai', 'août'); issue 70: no space
    // before the comma ("29 nov., 05:47", not "29 nov. , 05:47").
    await expect(own.locator('time')).toHaveText(/^\d{1,2} \p{L}+\.?, \d{2}:\d{2}$/u);
    await a.page.getByRole('button', { name: 'Masquer les messages' }).click();
    await expect(chat).toBeHidden();
    await a.page.getByRole('button', { name: 'Messages' }).click();
    await expect(a.page.getByRole('region', { name: 'Messages' })).toBeVisible();
  } finally {
    await a.close();
  }
});

test('a long history shows its latest page first and the earlier messages on demand, each once', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Writer' });
  await seed.addToChannel(channel.id, [bea.id]);
  // One more than the server's page of 200.
  for (let i = 1; i <= 201; i += 1) {
    await server.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: `Note ${i}.` }, bea.token);
  }
  const a = await openAs(browser, server.baseURL, admin, { viewport: { width: 1600, height: 900 } });
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    const chat = a.page.getByRole('region', { name: 'Messages' });
    const fromBea = chat.getByRole('listitem', { name: 'Message from Bea Writer' });
    await expect(fromBea.filter({ hasText: 'Note 201.' })).toBeVisible();
    await expect(fromBea).toHaveCount(200);
    await expect(fromBea.filter({ hasText: 'Note 1.' })).toHaveCount(0);

    // A message that arrives live while the history is paged back shows once too.
    await server.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: 'Live one.' }, bea.token);
    await expect(fromBea.filter({ hasText: 'Live one.' })).toHaveCount(1);
    await chat.getByRole('button', { name: 'Earlier messages' }).click();
    await expect(fromBea.filter({ hasText: 'Note 1.' })).toBeVisible();
    await expect(fromBea).toHaveCount(202);
    await expect(chat.getByRole('button', { name: 'Earlier messages' })).toHaveCount(0);
  } finally {
    await a.close();
  }
});

/** Posts a 320x240 PNG drawn in the page to the channel, as `account` (a real upload through the server). */
async function postPicture(page: import('@playwright/test').Page, token: string, channelId: number, caption: string) {
  const status = await page.evaluate(
    async ({ token, channelId, caption }) => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 240;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#3a6';
      context.fillRect(0, 0, 320, 240);
      const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
      const form = new FormData();
      form.append('channelId', String(channelId));
      form.append('textMsg', caption);
      form.append('image', blob, `${caption}.png`);
      return (await fetch('/user/api/uploadFile', { method: 'POST', headers: { 'x-access-token': token }, body: form }))
        .status;
    },
    { token, channelId, caption },
  );
  expect(status).toBe(200);
}

test('the newest message is in view on open, after images load and on each new one; scrolled up, a button says new messages arrived', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Pictures' });
  await seed.addToChannel(channel.id, [bea.id]);
  await server.call(
    '/user/api/sendMessageToChannel',
    { channelId: channel.id, message: 'From the console' },
    admin.token,
  );
  const b = await openAs(browser, server.baseURL, bea, { viewport: { width: 1600, height: 900 } });
  try {
    await b.page.goto('/talk');
    for (let i = 1; i <= 4; i += 1) await postPicture(b.page, bea.token, channel.id, `Photo ${i}`);
    await server.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: 'Last words' }, bea.token);

    await b.page.goto(roomUrl(channel.rtcSession));
    const chat = b.page.getByRole('region', { name: 'Messages' });
    const list = chat.getByRole('list', { name: 'Messages of the channel' });
    await expect(chat.getByText('Last words')).toBeVisible();
    // Once the pictures in view have loaded, the list still ends at the newest message.
    await expect
      .poll(() => list.evaluate((el) => [...el.querySelectorAll('img')].filter((img) => img.naturalWidth > 0).length))
      .toBeGreaterThan(0);
    const distanceToEnd = () => list.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));
    await expect.poll(distanceToEnd).toBeLessThan(4);
    await expect(chat.getByText('Last words')).toBeInViewport();

    // A member deletes its own messages only: no delete icon on the administrator's message.
    const fromConsole = chat.getByRole('listitem', { name: 'Message from Ada Lovelace' });
    await expect(fromConsole).toContainText('From the console');
    await expect(fromConsole.getByRole('button', { name: 'Delete' })).toHaveCount(0);
    await expect(
      chat.getByRole('listitem', { name: 'Message from Me' }).last().getByRole('button', { name: 'Delete' }),
    ).toHaveCount(1);

    // At the bottom, a new message comes into view by itself.
    await server.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: 'Still here' }, admin.token);
    await expect(chat.getByText('Still here')).toBeInViewport();
    await expect(chat.getByRole('button', { name: 'New messages' })).toHaveCount(0);

    // Scrolled up to read, the reader stays there and a button says that newer messages arrived.
    await list.evaluate((el) => {
      el.scrollTop = 0;
    });
    await expect.poll(distanceToEnd).toBeGreaterThan(100);
    await server.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: 'Meanwhile' }, admin.token);
    const newer = chat.getByRole('button', { name: 'New messages' });
    await expect(newer).toBeVisible();
    await expect(chat.getByText('Meanwhile')).not.toBeInViewport();
    await newer.click();
    await expect(chat.getByText('Meanwhile')).toBeInViewport();
    await expect(newer).toHaveCount(0);
  } finally {
    await b.close();
  }
});
