/**
 * Issue 70 item 8, in the browser: a refused safety setting is said beside its field (marked invalid, what to type
 * instead, in French and English), each bounded figure shows its bounds, and choosing discreet ambient listening
 * shows its legal notice before anything is saved. Nothing here changes the organisation's settings: the one save
 * is refused, and the discreet choice is never saved.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, useSession } from './fixtures.ts';

for (const [language, words] of [
  [
    'fr',
    {
      interval: 'Intervalle entre deux contrôles (secondes)',
      countdown: "Compte à rebours avant l'alerte (secondes)",
      countdownBounds: /^De 5 à 300\ss$/,
      tooSmall: /^Trop petit : saisissez au moins \d+\ss\.$/,
      summary: 'Rien n’a été enregistré : corrigez le champ signalé en rouge.',
      save: 'Enregistrer',
      ambient: "Écoute d'ambiance",
      discreet: 'Discrète',
      notice: /peut être interdit par la loi/,
    },
  ],
  [
    'en',
    {
      interval: 'Interval between two checks (seconds)',
      countdown: 'Countdown before the alert (seconds)',
      countdownBounds: /^From 5 to 300\ss$/,
      tooSmall: /^Too small: enter at least \d+\ss\.$/,
      summary: 'Nothing was saved: correct the field marked in red.',
      save: 'Save',
      ambient: 'Ambient listening',
      discreet: 'Discreet',
      notice: /may be against the law/,
    },
  ],
] as const) {
  test(`a refused safety setting is said beside its field, with its bounds (${language})`, async ({
    page,
    admin,
  }, testInfo) => {
    await page.context().addInitScript((lng) => localStorage.setItem('i18nextLng', lng), language);
    await useSession(page, admin);
    await page.goto('/settings');
    const interval = page.getByRole('spinbutton', { name: words.interval });
    await expect(interval).toBeVisible({ timeout: 60_000 });
    // Each bounded figure says its bounds before any save: the server's minimum for the lone-work ones.
    await expect(interval).toHaveAccessibleDescription(/^\D*\d+\D+86[\s,.\u202f]?400\ss$/);
    await expect(page.getByRole('spinbutton', { name: words.countdown })).toHaveAccessibleDescription(
      words.countdownBounds,
    );
    await expect(interval).not.toHaveAttribute('aria-invalid', 'true');

    await interval.fill('20');
    await page
      .getByRole('region', { name: /Sécurité des travailleurs|Worker safety/ })
      .getByRole('button', { name: words.save })
      .click();
    // The field says what to change, beside it; the section says only that nothing was saved.
    await expect(interval).toHaveAttribute('aria-invalid', 'true');
    await expect(interval).toHaveAccessibleDescription(words.tooSmall);
    await expect(page.getByRole('alert').filter({ hasText: words.summary })).toBeVisible();
    await expect(page.getByText('LONE_WORKER_MIN_SECONDS')).toHaveCount(0);

    // Discreet ambient listening: its legal notice shows as soon as it is chosen.
    await expect(page.getByText(words.notice)).toHaveCount(0);
    await page.getByRole('combobox', { name: words.ambient }).click();
    await page.getByRole('option', { name: words.discreet }).click();
    await expect(page.getByRole('alert').filter({ hasText: words.notice })).toBeVisible();
    // Another choice leaves the refused figure marked.
    await expect(interval).toHaveAttribute('aria-invalid', 'true');
    // docs/administrators/users-and-channels.md shows the French form as a refusal leaves it.
    if (language === 'fr') {
      const section = page.getByRole('region', { name: 'Sécurité des travailleurs' });
      await page.setViewportSize({ width: 1280, height: 1500 });
      await section.scrollIntoViewIfNeeded();
      const shot = testInfo.outputPath('settings-safety-refused.png');
      await section.screenshot({ path: shot });
      if (process.env.E2E_DOCS_SCREENSHOTS) {
        mkdirSync(path.resolve('docs/images'), { recursive: true });
        copyFileSync(shot, path.resolve('docs/images/settings-safety-refused.png'));
      }
    }
  });
}
