/**
 * The members' app (/talk) on a phone-sized Chromium: a member signs in and lands on its channels, enters
 * one, holds the big button and the administrator's room hears it; its position, shared with consent,
 * appears on the administrator's map; members are sent from the console to /talk. Hearing is judged against
 * the silence measured in the same test (room-support.ts).
 */
import { type Account, startIn, test } from './fixtures.ts';
import { connectedPeer, expectSilence, expectToHear, measureSilence, openAs, roomUrl } from './room-support.ts';
import { expect, PHONE, phoneLaunchOptions } from './talk-support.ts';

test.use({ launchOptions: phoneLaunchOptions });
test.describe.configure({ timeout: 180_000 });

async function signInOnForm(page: import('@playwright/test').Page, account: Account) {
  await page.goto('/signin');
  await page.getByRole('textbox', { name: 'Login', exact: true }).fill(account.login);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

test('a member signs in on a phone, lands on its channels, holds to talk and the administrator hears it', async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Field' });
  await seed.addToChannel(channel.id, [mia.id, admin.id]);

  const a = await openAs(browser, server.baseURL, admin);
  const phoneContext = await browser.newContext({ baseURL: server.baseURL, viewport: PHONE, hasTouch: true });
  await startIn(phoneContext, 'en');
  await phoneContext.addInitScript(() => {
    localStorage.setItem('talkgroup.voiceProcessing', 'off');
    window.__talkgroupDiagnostics = true;
  });
  const phone = await phoneContext.newPage();
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    await server.call('/user/api/sendMessageToChannel', { channelId: channel.id, message: 'Welcome' }, admin.token);

    await signInOnForm(phone, mia);
    await expect(phone).toHaveURL(/\/talk$/);
    await expect(phone.getByRole('heading', { level: 1, name: 'Talkgroup' })).toBeVisible();
    const entry = phone.getByRole('link', { name: new RegExp(channel.name) });
    await expect(entry).toContainText('2 members');
    await expect(entry).toHaveAccessibleName(/1 unread message/);

    // Who is talking shows on the list, live, before the member enters.
    const adminPtt = a.page.getByRole('button', { name: 'Push to talk' }).first();
    await expect(adminPtt).toBeEnabled();
    await adminPtt.hover();
    await a.page.mouse.down();
    await expect(entry.getByTestId('channel-talking')).toHaveText('Ada Lovelace talking');
    await a.page.mouse.up();
    await expect(entry.getByTestId('channel-talking')).toHaveCount(0);
    await entry.click();
    await expect(phone).toHaveURL(new RegExp(`/talk/${channel.id}$`));
    await expect(phone.getByRole('heading', { level: 1, name: channel.name })).toBeVisible();
    await expect(phone.getByText('Connected', { exact: true })).toBeVisible();

    const miaAtAdmin = await connectedPeer(a.page, mia.id);
    const silence = await measureSilence(a.page, miaAtAdmin);

    const talk = phone.getByRole('button', { name: 'Push to talk' });
    await expect(talk).toBeEnabled();
    await expect(talk).toHaveAttribute('aria-pressed', 'false');
    const box = await talk.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);
    await talk.hover();
    await phone.mouse.down();
    await expect(talk).toHaveAttribute('aria-pressed', 'true');
    await expect(phone.getByTestId('talking-now')).toHaveText('You are talking');
    await expectToHear(a.page, miaAtAdmin, silence);
    await expect(a.page.getByRole('listitem', { name: 'Mia Field' })).toHaveAttribute('data-talking', 'true');
    await phone.mouse.up();
    await expect(talk).toHaveAttribute('aria-pressed', 'false');
    await expectSilence(a.page, miaAtAdmin, silence);

    // The space bar holds the button too.
    await phone.keyboard.down('Space');
    await expectToHear(a.page, miaAtAdmin, silence);
    await phone.keyboard.up('Space');
    await expectSilence(a.page, miaAtAdmin, silence);

    // The administrator talks: the phone says who.
    const adminTalk = a.page.getByRole('button', { name: 'Push to talk' }).first();
    await adminTalk.hover();
    await a.page.mouse.down();
    await expect(phone.getByTestId('talking-now')).toHaveText('Talking: Ada Lovelace');
    await a.page.mouse.up();
    await expect(phone.getByTestId('talking-now')).toHaveText('Nobody is talking');

    // The members and their state; no map without mapRight.
    await phone.getByRole('tab', { name: 'Members' }).click();
    await expect(phone.getByRole('listitem', { name: 'Ada Lovelace' })).toHaveAttribute('data-state', 'inChannel');
    await expect(phone.getByRole('tab', { name: 'Map' })).toHaveCount(0);

    // The chat of the channel, both ways.
    await phone.getByRole('tab', { name: 'Messages' }).click();
    const input = phone.getByRole('textbox', { name: 'Message' });
    await input.fill('From the field');
    await input.press('Enter');
    await a.page.getByRole('button', { name: 'Messages' }).click();
    await expect(a.page.getByRole('listitem', { name: 'Message from Mia Field' })).toContainText('From the field');

    // Back on the list, what was read is no longer counted.
    await phone.getByRole('link', { name: 'Back to my channels' }).click();
    await expect(entry).toContainText('2 members');
    await expect(entry).not.toHaveAccessibleName(/unread/);
  } finally {
    await a.close();
    await phoneContext.close();
  }
});

test("a member's shared position appears on the administrator's map, and the switch stops it", async ({
  browser,
  server,
  admin,
  seed,
}) => {
  const channel = await seed.channel();
  const max = await seed.member({ firstName: 'Max', lastName: 'Scout', mapRight: true });
  const teammate = await seed.member({ firstName: 'Tia', lastName: 'Mate' });
  await seed.addToChannel(channel.id, [max.id, teammate.id]);

  const a = await openAs(browser, server.baseURL, admin);
  const phone = await openAs(browser, server.baseURL, max, { viewport: PHONE });
  await phone.page.context().grantPermissions(['geolocation']);
  await phone.page.context().setGeolocation({ latitude: 45.764, longitude: 4.8357, accuracy: 12 });
  try {
    await a.page.goto(roomUrl(channel.rtcSession));
    await phone.page.goto(`/talk/${channel.id}`);
    await expect(phone.page.getByRole('heading', { level: 1, name: channel.name })).toBeVisible();
    const share = phone.page.getByRole('switch', { name: 'Share my position' });
    await expect(share).not.toBeChecked();
    // It says how long its positions are kept (issue 28: POSITION_RETENTION_DAYS).
    await expect(phone.page.getByText(/^Your positions are kept 30 days/)).toBeVisible();
    await expect(phone.page.getByRole('img', { name: 'Position shared' })).toHaveCount(0);
    await share.check();
    await expect(phone.page.getByRole('img', { name: 'Position shared' })).toBeVisible();

    const marker = a.page.getByRole('button', { name: /^Max Scout, / });
    await expect(marker).toBeVisible();
    await marker.click();
    const popup = a.page.getByTestId('marker-popup');
    await expect(popup).toContainText('Latitude : 45.764');
    await expect(popup).toContainText('Longitude : 4.8357');

    // mapRight: the member sees the map too.
    await phone.page.getByRole('tab', { name: 'Map' }).click();
    await expect(phone.page.getByRole('button', { name: /^Max Scout, / })).toBeVisible();
    // Its own trail only (not its teammate's), no zone tools.
    await phone.page.getByRole('combobox', { name: 'Trail of' }).click();
    await expect(phone.page.getByRole('option')).toHaveText(['No trail', 'Max Scout']);
    await phone.page.keyboard.press('Escape');
    await expect(phone.page.getByRole('button', { name: 'Draw a circular zone' })).toHaveCount(0);

    // The consent is remembered on the device; the switch stops the sharing and its indicator.
    await phone.page.getByRole('tab', { name: 'Talk' }).click();
    await phone.page.getByRole('switch', { name: 'Share my position' }).uncheck();
    await expect(phone.page.getByRole('img', { name: 'Position shared' })).toHaveCount(0);
    await expect(phone.page.getByText('Your position is not shared.')).toBeVisible();
    expect(await phone.page.evaluate(() => localStorage.getItem('talkgroup.sharePosition'))).toBeNull();
  } finally {
    await a.close();
    await phone.close();
  }
});

test('members are sent from the console to /talk; an administrator may open /talk and go back', async ({
  page,
  seed,
  admin,
}) => {
  const member = await seed.member();
  await page.setViewportSize(PHONE);
  await page.context().addInitScript(
    ({ member }) => {
      localStorage.setItem('id', String(member.id));
      localStorage.setItem('role', 'member');
      localStorage.setItem('firstName', member.firstName);
      localStorage.setItem('lastName', member.lastName);
      sessionStorage.setItem('TOKEN_KEY', member.token);
    },
    { member },
  );
  for (const path of ['/', '/dashboard', '/usersList', '/channelsList', '/activities', '/signin']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/talk$/);
  }
  await expect(page.getByText('You are not in any channel yet.', { exact: false })).toBeVisible();
  await page.goto('/talk/999999');
  await expect(page.getByText('This channel does not exist, or you are not one of its members.')).toBeVisible();
  await page.getByRole('link', { name: 'Back to my channels' }).click();
  await expect(page).toHaveURL(/\/talk$/);

  const adminPage = await page
    .context()
    .browser()!
    .newContext({ baseURL: new URL(page.url()).origin });
  try {
    await startIn(adminPage, 'en');
    const p = await adminPage.newPage();
    await p.addInitScript(
      ({ admin }) => {
        localStorage.setItem('id', String(admin.id));
        localStorage.setItem('role', 'admin');
        sessionStorage.setItem('TOKEN_KEY', admin.token);
      },
      { admin },
    );
    await p.goto('/talk');
    await expect(p.getByRole('heading', { level: 1, name: 'Talkgroup' })).toBeVisible();
    await p.getByRole('link', { name: 'Administrator console' }).click();
    await expect(p).toHaveURL(/\/dashboard$/);
  } finally {
    await adminPage.close();
  }
});
