/**
 * A hardware talk key on the members' app: chosen once and kept on the device, held it talks, let go it stops,
 * refused while the page is in the background; in English, French and German.
 */
import { test } from './fixtures.ts';
import { openAs } from './room-support.ts';
import { expect, PHONE, phoneLaunchOptions } from './talk-support.ts';

test.use({ launchOptions: phoneLaunchOptions });
test.describe.configure({ timeout: 180_000 });

test('a hardware talk key: chosen once and kept, held it talks, let go it stops, refused in the background; en, fr, de', async ({
  browser,
  server,
  seed,
}) => {
  const channel = await seed.channel();
  const kim = await seed.member({ firstName: 'Kim', lastName: 'Key' });
  await seed.addToChannel(channel.id, [kim.id]);
  const texts = {
    en: {
      ptt: 'Push to talk',
      button: 'Talk key',
      press: 'Press the key to use for talking now… (Escape cancels)',
      current: 'Talk key: F8 (hold it to talk)',
      choose: 'Choose a key',
      close: 'Close',
      talking: 'You are talking',
      nobody: 'Nobody is talking',
    },
    fr: {
      ptt: 'Appuyer pour parler',
      button: 'Touche pour parler',
      press: 'Appuyez maintenant sur la touche à utiliser pour parler… (Échap annule)',
      current: 'Touche pour parler : F8 (maintenez-la pour parler)',
      choose: 'Choisir une touche',
      close: 'Fermer',
      talking: 'Vous parlez',
      nobody: 'Personne ne parle',
    },
    de: {
      ptt: 'Zum Sprechen drücken',
      button: 'Sprechtaste',
      press: 'Drücken Sie jetzt die Taste, mit der Sie sprechen wollen… (Esc bricht ab)',
      current: 'Sprechtaste: F8 (zum Sprechen gedrückt halten)',
      choose: 'Taste wählen',
      close: 'Schließen',
      talking: 'Sie sprechen',
      nobody: 'Niemand spricht',
    },
  } as const;
  for (const language of ['en', 'fr', 'de'] as const) {
    const words = texts[language];
    const phone = await openAs(browser, server.baseURL, kim, { viewport: PHONE, language });
    const { page } = phone;
    try {
      await page.goto(`/talk/${channel.id}`);
      await expect(page.getByRole('button', { name: words.ptt })).toBeEnabled();
      await page.getByRole('button', { name: words.button }).click();
      const dialog = page.getByRole('dialog', { name: words.button });
      await dialog.getByRole('button', { name: words.choose }).click();
      await expect(dialog.getByRole('status')).toHaveText(words.press);
      await page.keyboard.press('F8');
      await expect(dialog.getByRole('status')).toHaveText(words.current);
      await dialog.getByRole('button', { name: words.close }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByText(words.current)).toBeVisible();

      // Held, it talks; let go, it stops (a hold, not a toggle).
      const talkingNow = page.getByTestId('talking-now');
      await expect(talkingNow).toHaveText(words.nobody);
      await page.keyboard.down('F8');
      await expect(talkingNow).toHaveText(words.talking);
      await page.keyboard.up('F8');
      await expect(talkingNow).toHaveText(words.nobody);
      if (language !== 'en') continue;

      // Kept on the device: after a reload the key still talks.
      await page.reload();
      await expect(page.getByRole('button', { name: words.ptt })).toBeEnabled();
      await expect(page.getByText(words.current)).toBeVisible();
      await page.keyboard.down('F8');
      await expect(talkingNow).toHaveText(words.talking);
      await page.keyboard.up('F8');
      await expect(talkingNow).toHaveText(words.nobody);

      // The page goes to the background while the key is held: the talk ends (the phone takes the microphone
      // from a hidden page).
      await page.keyboard.down('F8');
      await expect(talkingNow).toHaveText(words.talking);
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      await expect(talkingNow).toHaveText(words.nobody);
      await page.keyboard.up('F8');
      // A press that reaches the page while it is in the background (a Bluetooth button, a key routed to it)
      // is refused with a sentence: the page says what the phone's document says, and never "on air".
      await page.evaluate(() => {
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'F8', code: 'F8', bubbles: true }));
      });
      await expect(page.getByRole('alert').filter({ hasText: 'The app is in the background' })).toHaveText(
        'The app is in the background: the phone does not give it the microphone. Open it to talk.',
      );
      await expect(talkingNow).toHaveText(words.nobody);
    } finally {
      await phone.close();
    }
  }
});
