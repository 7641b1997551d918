/**
 * The crowd's browser (bench:media, bench:mcptt): the listeners stand for phones elsewhere, so their decoding
 * runs only when nothing else wants the CPU and does not starve the pages measured. SCHED_IDLE, and as root
 * without CAP_SYS_NICE (setpriv): Chromium sets its own nice values and, as root, makes its audio threads
 * real-time, which would take the crowd's decoding out of the idle class. `shared`: the measured pages' browser.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { CHROMIUM_PATH, chromiumLaunchOptions } from '../../e2e/chromium.ts';

export async function launchCrowdBrowser(
  measured: Browser,
  shared: boolean,
): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (shared) return { browser: measured, close: async () => {} };
  const dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-crowd-'));
  const wrapper = path.join(dir, 'chromium');
  // Only root holds CAP_SYS_NICE (and only root may drop it from the bounding set).
  const root = process.getuid?.() === 0 && existsSync('/usr/bin/setpriv');
  const dropNice = root ? 'setpriv --bounding-set=-sys_nice --inh-caps=-sys_nice ' : '';
  writeFileSync(wrapper, `#!/bin/sh\nexec ${dropNice}chrt --idle 0 ${JSON.stringify(CHROMIUM_PATH)} "$@"\n`);
  chmodSync(wrapper, 0o755);
  const browser = await chromium.launch({
    ...chromiumLaunchOptions(['--autoplay-policy=no-user-gesture-required']),
    executablePath: wrapper,
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
