/**
 * Nothing missed and the scan: a transmission made while the member was away is counted and played; on one
 * channel the member hears its other ones, answers there for 5 s, and a channel taken out of the scan stays out
 * on every device. Hearing is judged against the silence measured in the same test (room-support.ts).
 */
import { test, unique } from './fixtures.ts';
import { connectedIn, connectedPageIn, heardAbove, openAs, peakIn, silenceIn } from './room-support.ts';
import { expect, PHONE, phoneLaunchOptions, watchForButton } from './talk-support.ts';

test.use({ launchOptions: phoneLaunchOptions });
test.describe.configure({ timeout: 180_000 });

test('nothing missed: a transmission made while the member was away is counted, played from the channel and heard on every device; Busy and Available (fr)', async ({
  browser,
  server,
  seed,
}) => {
  const channel = await seed.channel();
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Parle' });
  const lou = await seed.member({ firstName: 'Lou', lastName: 'Absent' });
  await seed.addToChannel(channel.id, [mia.id, lou.id]);
  const talker = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
  const phone = await openAs(browser, server.baseURL, lou, { viewport: PHONE, language: 'fr' });
  const laptop = await openAs(browser, server.baseURL, lou, { language: 'fr' });
  try {
    await phone.page.goto('/talk');
    // Out of the scan, on every device of Lou's: the home page does not hear the channel live.
    const scanSwitch = phone.page.getByRole('switch', { name: `Écouter ${channel.name}` });
    await expect(scanSwitch).toBeChecked();
    await scanSwitch.click();
    await expect(scanSwitch).not.toBeChecked();
    // "Ne pas déranger" is a switch of its own, apart from "Mon statut" (issue 58).
    const busy = phone.page.getByRole('switch', { name: 'Ne pas déranger' });
    await expect(busy).not.toBeChecked();
    await busy.click();
    await expect(busy).toBeChecked();
    await expect(phone.page.getByText('Ne pas déranger : les transmissions vont dans vos manquées')).toBeVisible();
    await busy.click();
    await expect(busy).not.toBeChecked();
    await laptop.page.goto('/talk');
    const entryOnLaptop = laptop.page.getByRole('link', { name: new RegExp(channel.name) });
    await expect(entryOnLaptop).toBeVisible();
    await expect(laptop.page.getByRole('switch', { name: `Écouter ${channel.name}` })).not.toBeChecked();

    // Mia talks while Lou's pages are not in the channel: it is kept, and counted as missed.
    await talker.page.goto(`/talk/${channel.id}`);
    const ptt = talker.page.getByRole('button', { name: 'Push to talk' });
    await expect(ptt).toBeEnabled();
    await ptt.hover();
    await talker.page.mouse.down();
    await expect(talker.page.getByTestId('talking-now')).toHaveText('You are talking');
    await talker.page.waitForTimeout(1500);
    await talker.page.mouse.up();
    const entry = phone.page.getByRole('link', { name: new RegExp(channel.name) });
    await expect(entry.getByTestId('channel-missed')).toHaveText('1 manquée');
    await expect(entryOnLaptop.getByTestId('channel-missed')).toHaveText('1 manquée');

    // Played on the phone, from the channel page: heard, on the laptop too.
    await entry.click();
    const play = phone.page.getByRole('button', { name: 'Écouter 1 manquée' });
    await play.click();
    await expect(play).toHaveCount(0);
    await expect(entryOnLaptop.getByTestId('channel-missed')).toHaveCount(0);
    await phone.page.goBack();
    await expect(phone.page.getByRole('link', { name: new RegExp(channel.name) })).toBeVisible();
    await expect(phone.page.getByTestId('channel-missed')).toHaveCount(0);
  } finally {
    await Promise.all([talker.close(), phone.close(), laptop.close()]);
  }
});

test('scan and talk-back: on one channel the member hears its other one, named with its talker, answers there for 5 s, and a channel taken out of the scan stays out on every device, its transmissions missed (fr, en, de)', async ({
  browser,
  server,
  seed,
}) => {
  // Three pages in voice rooms, two of them in both channels' rooms: on a loaded machine this takes minutes.
  test.setTimeout(300_000);
  const atelier = await seed.channel(unique('Atelier'));
  const quai = await seed.channel(unique('Quai'));
  const mia = await seed.member({ firstName: 'Mia', lastName: 'Atelier' });
  const lou = await seed.member({ firstName: 'Lou', lastName: 'Quai' });
  await seed.addToChannel(atelier.id, [mia.id, lou.id]);
  await seed.addToChannel(quai.id, [lou.id]);
  const talker = await openAs(browser, server.baseURL, mia, { viewport: PHONE });
  const phone = await openAs(browser, server.baseURL, lou, { viewport: PHONE, language: 'fr' });
  const english = await openAs(browser, server.baseURL, lou, { viewport: PHONE });
  // Lou's German device comes once Atelier is out of the scan: two devices of Lou's in the voice rooms hold what
  // a third would show (every sentence is in every catalogue: i18n/catalogues.test.ts), with four peer connections instead of nine.
  let german: Awaited<ReturnType<typeof openAs>> | undefined;
  try {
    // Every channel is scanned at first; each page of Lou's is on Quai.
    await phone.page.goto('/talk');
    await expect(phone.page.getByRole('switch', { name: `Écouter ${atelier.name}` })).toBeChecked();
    await expect(phone.page.getByRole('switch', { name: `Écouter ${quai.name}` })).toBeChecked();
    await english.page.goto('/talk');
    await expect(english.page.getByRole('switch', { name: `Scan ${atelier.name}` })).toBeChecked();
    for (const { page } of [phone, english]) await page.goto(`/talk/${quai.id}`);
    await talker.page.goto(`/talk/${atelier.id}`);

    // Mia talks on Atelier: Lou's page on Quai hears her and names the channel and the talker.
    const miaAtLou = await connectedIn(phone.page, atelier.rtcSession, mia.id);
    const silence = await silenceIn(phone.page, atelier.rtcSession, miaAtLou);
    // Lou has two pages in Atelier (each scans it): Mia must listen to the phone's, the one that replies.
    const louAtMia = await connectedPageIn(talker.page, atelier.rtcSession, phone.page);
    const miaSilence = await silenceIn(talker.page, atelier.rtcSession, louAtMia);
    const miaPtt = talker.page.getByRole('button', { name: 'Push to talk' });
    await expect(miaPtt).toBeEnabled();
    await miaPtt.hover();
    await talker.page.mouse.down();
    await expect(phone.page.getByTestId('scan-heard')).toHaveText(`Sur ${atelier.name} : Mia Atelier`);
    await expect(english.page.getByTestId('scan-heard')).toHaveText(`On ${atelier.name}: Mia Atelier`);
    await expect
      .poll(() => peakIn(phone.page, atelier.rtcSession, miaAtLou), { message: 'Lou hears Atelier from Quai' })
      .toBeGreaterThan(heardAbove(silence));
    // The offer to answer lasts 5 s from the end of Mia's transmission. On a loaded machine one of the test's
    // round trips to a page can take longer than that, so each page watches for the offer itself, from before
    // Mia lets go: the phone answers the moment it appears (holding the space bar, as a person would).
    const phoneReplied = await watchForButton(phone.page, `Répondre sur ${atelier.name}`, { holdSpace: true });
    const englishOffered = await watchForButton(english.page, `Reply on ${atelier.name}`);
    await talker.page.mouse.up();
    await expect(phone.page.getByTestId('scan-heard')).toHaveText('');

    // Within 5 s, holding the button answers on Atelier; then it talks on Quai again.
    const reply = phone.page.getByRole('button', { name: `Répondre sur ${atelier.name}` });
    await phoneReplied();
    await englishOffered();
    await expect(reply).toHaveAttribute('aria-pressed', 'true');
    await expect(talker.page.getByTestId('talking-now')).toHaveText('Talking: Lou Quai');
    await expect
      .poll(() => peakIn(talker.page, atelier.rtcSession, louAtMia), { message: 'Mia hears the reply' })
      .toBeGreaterThan(heardAbove(miaSilence));
    await phone.page.keyboard.up('Space');
    await expect(talker.page.getByTestId('talking-now')).toHaveText('Nobody is talking');
    await expect(phone.page.getByRole('button', { name: 'Appuyer pour parler' })).toBeVisible();
    await expect(reply).toHaveCount(0);

    // Left alone, the chance to answer ends after 5 s.
    await talker.page.mouse.down();
    await expect(phone.page.getByTestId('scan-heard')).toHaveText(`Sur ${atelier.name} : Mia Atelier`);
    const offeredAgain = await watchForButton(phone.page, `Répondre sur ${atelier.name}`);
    await talker.page.mouse.up();
    await offeredAgain();
    await expect(reply).toHaveCount(0, { timeout: 60_000 });
    await expect(phone.page.getByRole('button', { name: 'Appuyer pour parler' })).toBeVisible();

    // Atelier out of the scan, from the home page: kept on the server, so no page of Lou's hears it any more.
    await phone.page.goto('/talk');
    const atelierScan = phone.page.getByRole('switch', { name: `Écouter ${atelier.name}` });
    await atelierScan.click();
    await expect(atelierScan).not.toBeChecked();
    await expect
      .poll(() => english.page.evaluate((room) => Boolean(window.__talkgroupRooms?.[room]), atelier.rtcSession))
      .toBe(false);
    await talker.page.mouse.down();
    await expect(talker.page.getByTestId('talking-now')).toHaveText('You are talking');
    await expect(english.page.getByTestId('scan-heard')).toHaveText('');
    await talker.page.waitForTimeout(1500);
    await talker.page.mouse.up();
    // Nobody of Lou's heard it: it is missed.
    await expect(
      phone.page.getByRole('link', { name: new RegExp(atelier.name) }).getByTestId('channel-missed'),
    ).toHaveText('1 manquée');
    // The count and the play button in English and German too; the German device scans Quai only.
    german = await openAs(browser, server.baseURL, lou, { viewport: PHONE, language: 'de' });
    await german.page.goto('/talk');
    await expect(german.page.getByRole('switch', { name: `${atelier.name} mithören` })).not.toBeChecked();
    await expect(german.page.getByRole('switch', { name: `${quai.name} mithören` })).toBeChecked();
    for (const [page, count, play] of [
      [english.page, '1 missed', 'Play 1 missed'],
      [german.page, '1 verpasst', '1 verpasste abspielen'],
    ] as const) {
      await page.goto('/talk');
      const entry = page.getByRole('link', { name: new RegExp(atelier.name) });
      await expect(entry.getByTestId('channel-missed')).toHaveText(count);
      await entry.click();
      await expect(page.getByRole('button', { name: play })).toBeVisible();
    }
    await phone.page.reload();
    await expect(phone.page.getByRole('switch', { name: `Écouter ${atelier.name}` })).not.toBeChecked();
  } finally {
    await Promise.all([talker.close(), phone.close(), english.close(), german?.close()]);
  }
});
