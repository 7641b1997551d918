/**
 * How the browser tests launch Chromium: the system package (/usr/bin/chromium, which .ci/run installs from
 * Debian), quiet and sandbox-free for containers. A spec that needs more flags (a fake microphone) spreads
 * these: `test.use({ launchOptions: chromiumLaunchOptions(fakeMicrophoneArgs(file)) })`.
 */
import type { LaunchOptions } from '@playwright/test';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  // No GPU process: headless, it rasterises with SwiftShader on the CPU, about a third of a core per browser
  // on a 2-core machine running two of them (the pages draw in software instead).
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function chromiumLaunchOptions(extraArgs: string[] = []): LaunchOptions {
  return { executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] };
}
