/**
 * Steps of the dispatch console's browser tests: the desk's monitor list, what a page hears of a user in a
 * channel (the voice rooms' diagnostics, window.__talkgroupRooms) and what the desk plays of a channel after
 * its level (window.__talkgroupDispatch).
 */
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

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

/** What the desk played of a channel over the last ~0.7 s, after the channel's level. */
export function deskPeak(page: Page, room: string): Promise<number> {
  return page.evaluate((key) => window.__talkgroupDispatch?.recentPeak(key) ?? 0, room);
}

export function deskLevel(page: Page, room: string): Promise<number> {
  return page.evaluate((key) => window.__talkgroupDispatch?.level(key) ?? -1, room);
}

/** Holds a button down with the mouse until `up` is called. */
export async function hold(page: Page, button: ReturnType<Page['getByRole']>): Promise<() => Promise<void>> {
  await button.hover();
  await page.mouse.down();
  return () => page.mouse.up();
}

declare global {
  interface Window {
    __talkgroupDispatch?: { rooms(): string[]; level(room: string): number; recentPeak(room: string): number };
  }
}
