/**
 * Shared parts of the members' app specs (e2e/talk-*.spec.ts): a phone-sized viewport, deadlines for a busy
 * machine, Chromium launched as a member's browser would be (background pages throttled), and a watcher for a
 * button that is offered only for a few seconds.
 */
import type { Page } from '@playwright/test';
import { chromiumLaunchOptions } from './chromium.ts';
import { expect as baseExpect } from './fixtures.ts';
import { fakeMicrophoneArgs } from './room-audio.ts';
import { TONE_WAV } from './room-support.ts';

// A busy machine may be slow: wait on states, with deadlines to match.
export const expect = baseExpect.configure({ timeout: 60_000 });
export const PHONE = { width: 390, height: 844 };

// Some of these tests say what a page does in the background: Chromium runs without Playwright's switches that
// keep background pages from being throttled, as a member's browser would. (Headless Chromium never hides a
// page by itself: the tests hide it as the phone would tell it, its visibility state and a visibilitychange.)
// Each spec passes them to its own `test.use` (a `test.use` in an imported module applies to one file only).
export const phoneLaunchOptions = {
  ...chromiumLaunchOptions(fakeMicrophoneArgs(TONE_WAV)),
  ignoreDefaultArgs: [
    '--disable-background-timer-throttling',
    '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows',
  ],
};

/**
 * Watches, in the page itself (a MutationObserver), for a button of that name; the returned function waits until
 * it was seen. An offer that lasts a few seconds is not missed while the test waits on a loaded machine. With
 * `holdSpace`, the page presses the space bar (on its body) the moment the button appears: the talk button's
 * own shortcut; the test lets go with `keyboard.up('Space')`.
 */
export async function watchForButton(
  page: Page,
  name: string,
  options: { holdSpace?: boolean } = {},
): Promise<() => Promise<void>> {
  await page.evaluate(
    ([label, holdSpace]) => {
      const holder = window as { __buttonsSeen?: Record<string, boolean> };
      holder.__buttonsSeen = { ...holder.__buttonsSeen, [label]: false };
      const seenSoFar = holder.__buttonsSeen;
      const seen = () => {
        if (![...document.querySelectorAll('button')].some((b) => b.getAttribute('aria-label') === label)) return false;
        if (holdSpace)
          document.body.dispatchEvent(new KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true }));
        seenSoFar[label] = true;
        return true;
      };
      if (seen()) return;
      const observer = new MutationObserver(() => {
        if (seen()) observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true, attributes: true });
    },
    [name, options.holdSpace ?? false] as const,
  );
  return () =>
    expect
      .poll(
        () =>
          page.evaluate(
            (label) => (window as { __buttonsSeen?: Record<string, boolean> }).__buttonsSeen?.[label] ?? false,
            name,
          ),
        { message: `the page shows ${name}`, timeout: 60_000 },
      )
      .toBe(true);
}
