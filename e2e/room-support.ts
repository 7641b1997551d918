/**
 * Shared steps of the room specs: a browser context per signed-in user (each user has its own storage),
 * the room's read-only debug hook (window.__talkgroupRoom), and waiting for peers to connect.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { type Account, expect, type Language, startIn, useSession } from './fixtures.ts';
import { writeToneWav } from './room-audio.ts';

/** A 1 kHz tone at a third of full scale, written once per test process: every page's microphone plays it. */
export const TONE_WAV = writeToneWav(path.join(mkdtempSync(path.join(tmpdir(), 'talkgroup-tone-')), 'tone.wav'));

export interface RoomPage {
  page: Page;
  close(): Promise<void>;
}

/** A new context signed in as `account`, with voice processing off (it would flatten the test tone). */
export async function openAs(
  browser: Browser,
  baseURL: string,
  account: Account,
  options: { language?: Language; viewport?: { width: number; height: number } } = {},
): Promise<RoomPage> {
  const context = await browser.newContext({ baseURL, viewport: options.viewport ?? { width: 1280, height: 800 } });
  await startIn(context, options.language ?? 'en');
  await context.addInitScript(() => localStorage.setItem('talkgroup.voiceProcessing', 'off'));
  const page = await context.newPage();
  await useSession(page, account);
  return { page, close: () => context.close() };
}

export function roomUrl(rtcSession: string): string {
  return `/groupCallView/${encodeURIComponent(rtcSession)}`;
}

interface HookPeer {
  id: string;
  name: string;
  userId: number | null;
  connection: string;
  talking: boolean;
}

export async function hookPeers(page: Page): Promise<HookPeer[]> {
  return page.evaluate(() => window.__talkgroupRoom?.peers() ?? []);
}

/** Waits until the page has a connected peer connection with the user, and returns its socket id. */
export async function connectedPeer(page: Page, userId: number): Promise<string> {
  let id = '';
  await expect
    .poll(
      async () => {
        const peer = (await hookPeers(page)).find((candidate) => candidate.userId === userId);
        id = peer?.id ?? '';
        return peer?.connection;
      },
      { timeout: 20_000, message: `peer connection with user ${userId}` },
    )
    .toBe('connected');
  return id;
}

/** The peak level (0..1) at which `page` receives `peerId` now. */
export async function levelOf(page: Page, peerId: string): Promise<number> {
  return page.evaluate((id) => window.__talkgroupRoom?.levels()[id] ?? 0, peerId);
}

export async function inboundBytes(page: Page, peerId: string): Promise<number> {
  return page.evaluate(async (id) => (await window.__talkgroupRoom?.inboundAudio(id))?.bytesReceived ?? 0, peerId);
}

declare global {
  interface Window {
    __talkgroupRoom?: {
      selfId: string | null;
      micOn: boolean;
      micReady: boolean;
      lastMicOnAt: number;
      peers(): HookPeer[];
      levels(): Record<string, number>;
      rtpLevel(peerId: string): number;
      waitForLevel(peerId: string, threshold: number, timeoutMs: number, above?: boolean): Promise<number | null>;
      inboundAudio(peerId: string): Promise<{ bytesReceived: number; packetsReceived: number } | null>;
    };
  }
}
