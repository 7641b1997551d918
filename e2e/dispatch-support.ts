/**
 * Steps of the dispatch console's browser tests: the desk's monitor list, what a page hears of a user in a
 * channel (the voice rooms' diagnostics, window.__talkgroupRooms) and what the desk plays of a channel after
 * its level (window.__talkgroupDispatch).
 */
import type { Browser, Locator, Page } from '@playwright/test';
import { expect, type Seed } from './fixtures.ts';
import { openAs, roomUrl } from './room-support.ts';

/** What a page hears of a user in a channel: the rooms' own helpers, under the names these tests use. */
export { connectedIn as peerIn, peakIn, silenceIn } from './room-support.ts';

/** Ticks these channels in "Monitored channels" and saves. */
export async function monitor(page: Page, names: string[]): Promise<void> {
  await page.getByRole('button', { name: /^Monitored channels/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Monitored channels' });
  for (const name of names) await dialog.getByRole('checkbox', { name: `Monitor ${name}` }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  for (const name of names) await expect(page.getByRole('region', { name: `Channel ${name}` })).toBeVisible();
}

/**
 * Issue 70: a member's row action on a tile, from the row's "Actions" menu (English, or French): opens the menu and
 * gives its item of that name.
 */
export async function rowAction(
  tile: Locator,
  member: string,
  action: string | RegExp,
  { language = 'en' }: { language?: 'en' | 'fr' } = {},
): Promise<Locator> {
  const menuName = language === 'fr' ? `Actions pour ${member}` : `Actions for ${member}`;
  await tile.getByRole('button', { name: menuName, exact: true }).click();
  return tile.page().getByRole('menu', { name: menuName, exact: true }).getByRole('menuitem', { name: action });
}

/**
 * The level tests' cast, on the mesh and through Janus: one channel; Dana Level at the desk monitoring it,
 * Ali Hears on the phone app in it, Bea Talks in its room. The caller closes the three pages.
 */
export async function levelCast(browser: Browser, baseURL: string, seed: Seed) {
  const alpha = await seed.channel();
  const desk = await seed.member({ firstName: 'Dana', lastName: 'Level', role: 'dispatcher' });
  const ali = await seed.member({ firstName: 'Ali', lastName: 'Hears' });
  const bea = await seed.member({ firstName: 'Bea', lastName: 'Talks' });
  await seed.addToChannel(alpha.id, [desk.id, ali.id, bea.id]);
  const d = await openAs(browser, baseURL, desk);
  const a = await openAs(browser, baseURL, ali, { viewport: { width: 390, height: 844 } });
  const b = await openAs(browser, baseURL, bea);
  const pages = [d, a, b];
  try {
    await d.page.goto('/dispatch');
    await monitor(d.page, [alpha.name]);
    await a.page.goto(`/talk/${alpha.id}`);
    await b.page.goto(roomUrl(alpha.rtcSession));
  } catch (error) {
    for (const page of pages) await page.close();
    throw error;
  }
  return { alpha, desk, bea, d, a, b, pages };
}

/** What the desk played of a channel over the last ~0.7 s, after the channel's level. */
export function deskPeak(page: Page, room: string): Promise<number> {
  return page.evaluate((key) => window.__talkgroupDispatch?.recentPeak(key) ?? 0, room);
}

export function deskLevel(page: Page, room: string): Promise<number> {
  return page.evaluate((key) => window.__talkgroupDispatch?.level(key) ?? -1, room);
}

/**
 * The level a peer's voice arrives with at `page` on the mesh: the loudest of a few reads of the audio level
 * the received RTP packets carry (RFC 6464, set by the sender from what it encoded). A steady tone gives a
 * steady level, which a busy receiving machine's playout (concealment, a late read) does not change.
 */
export async function arrivingLevel(page: Page, room: string, peerId: string): Promise<number> {
  let level = 0;
  for (let read = 0; read < 8; read++) {
    level = Math.max(
      level,
      await page.evaluate(([key, id]) => window.__talkgroupRooms?.[key]?.rtpLevel(id) ?? 0, [room, peerId] as const),
    );
    await page.waitForTimeout(250);
  }
  return level;
}

/**
 * The level a channel's voice arrives with at `page` through the media server: the loudest of a few reads of
 * its loudest 50 ms over the last ~0.7 s (`recentLevel`: a sine's peak for its power), four reads from the
 * moment it is heard, about three seconds. The packets the media server relays carry no audio level (the
 * VideoRoom forwards them without RFC 6464's extension), so what the page decoded is measured: a burst of a
 * tenth of a second at the start of a transmission counts, a few milliseconds upset by a busy machine's
 * jitter buffer do not.
 */
export async function arrivingLevelDecoded(page: Page, room: string, peerId: string): Promise<number> {
  // room-support.ts types the rooms' diagnostics as the tests used them before `recentLevel`.
  let level = 0;
  for (let read = 0; read < 4; read++) {
    level = Math.max(
      level,
      await page.evaluate(
        ([key, id]) =>
          (window.__talkgroupRooms?.[key] as { recentLevel?(peerId: string): number } | undefined)?.recentLevel?.(id) ??
          0,
        [room, peerId] as const,
      ),
    );
    await page.waitForTimeout(650);
  }
  return level;
}

/** How far apart two levels are, in decibels (either way). */
export function decibelsApart(level: number, reference: number): number {
  return Math.abs(20 * Math.log10(Math.max(1e-6, level) / Math.max(1e-6, reference)));
}

/**
 * Holds a button down with the mouse until `up` is called. Once the button is enabled: a talk button is
 * disabled until its page has joined and has its microphone, and a press on it then would do nothing (beside a
 * loaded CI, a page opened just before was pressed that early, and its transmission never came).
 */
export async function hold(page: Page, button: ReturnType<Page['getByRole']>): Promise<() => Promise<void>> {
  await expect(button).toBeEnabled({ timeout: 60_000 });
  await button.hover();
  await page.mouse.down();
  return () => page.mouse.up();
}

declare global {
  interface Window {
    __talkgroupDispatch?: { rooms(): string[]; level(room: string): number; recentPeak(room: string): number };
  }
}
