/**
 * Shared steps of the room specs: a browser context per signed-in user (each user has its own storage),
 * the room's read-only diagnostics (window.__talkgroupRoom, which each page asks for before it loads),
 * waiting for peers to connect, and hearing: received audio judged against the silence measured in the same
 * test, never against a fixed level that a busy machine may not reach.
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

/**
 * A new context signed in as `account`, with voice processing off (it would flatten the test tone) and the
 * room's diagnostics on (off unless a page asks for them before it loads).
 */
export async function openAs(
  browser: Browser,
  baseURL: string,
  account: Account,
  options: { language?: Language; viewport?: { width: number; height: number } } = {},
): Promise<RoomPage> {
  const context = await browser.newContext({ baseURL, viewport: options.viewport ?? { width: 1280, height: 800 } });
  await startIn(context, options.language ?? 'en');
  await context.addInitScript(() => {
    localStorage.setItem('talkgroup.voiceProcessing', 'off');
    window.__talkgroupDiagnostics = true;
  });
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
      { timeout: 60_000, message: `peer connection with user ${userId}` },
    )
    .toBe('connected');
  return id;
}

/** The loudest `page` received from `peerId` over the last ~0.7 s (0..1), in one read. */
export async function recentPeakOf(page: Page, peerId: string): Promise<number> {
  return page.evaluate((id) => window.__talkgroupRoom?.recentPeak(id) ?? 0, peerId);
}

/** Seconds of audio from `peerId` that `page` has played out so far (silence included). */
export async function playedFrom(page: Page, peerId: string): Promise<number> {
  return page.evaluate(async (id) => (await window.__talkgroupRoom?.inboundAudio(id))?.playedSeconds ?? 0, peerId);
}

/**
 * Silence as `page` receives it from `peerId` while nobody talks: the recent peak once the listener has
 * played a whole window of it. Counted in audio played out, not in packets: with DTX a silent peer sends
 * one packet every 400 ms.
 */
export async function measureSilence(page: Page, peerId: string): Promise<number> {
  // Nothing received yet (a channel through the media server sends nothing while nobody talks): what plays
  // is nothing at all, and that is the silence.
  const received = await page.evaluate(
    async (id) => (await window.__talkgroupRoom?.inboundAudio(id))?.packetsReceived ?? 0,
    peerId,
  );
  if (received === 0) return recentPeakOf(page, peerId);
  const first = await playedFrom(page, peerId);
  await expect
    .poll(() => playedFrom(page, peerId), { timeout: 60_000, message: 'a second of received silence' })
    .toBeGreaterThan(first + 1);
  return recentPeakOf(page, peerId);
}

/**
 * Heard: clearly above the silence measured in the same test. The 0.33 tone reads near 0.33 without voice
 * processing; with it (a page whose storage the app clears), noise suppression settles the steady tone near
 * 0.036 within two seconds, still a hundred times the decoded silence (about 0.00004).
 */
export function heardAbove(silence: number): number {
  return Math.max(silence * 20, silence + 0.005);
}

/** Silent again: back near the silence measured in the same test (silence frames decode to 0). */
export function silentBelow(silence: number): number {
  return Math.max(silence * 2, silence + 0.01);
}

/** Waits until `page` hears `peerId` talk, with a deadline for a busy machine. */
export async function expectToHear(page: Page, peerId: string, silence: number): Promise<void> {
  await expect
    .poll(() => recentPeakOf(page, peerId), { timeout: 60_000, message: `hearing ${peerId} above ${silence}` })
    .toBeGreaterThan(heardAbove(silence));
}

/** Waits until `page` receives silence from `peerId` again. */
export async function expectSilence(page: Page, peerId: string, silence: number): Promise<void> {
  await expect
    .poll(() => recentPeakOf(page, peerId), { timeout: 60_000, message: `silence from ${peerId}` })
    .toBeLessThan(silentBelow(silence));
}

/** The socket id of the connected peer of this user in that channel's room (a page in several channels). */
export async function connectedIn(page: Page, room: string, userId: number): Promise<string> {
  let id = '';
  await expect
    .poll(
      async () => {
        const peer = await page.evaluate(
          ([key, user]) => window.__talkgroupRooms?.[key]?.peers().find((candidate) => candidate.userId === user),
          [room, userId] as const,
        );
        id = peer?.id ?? '';
        return peer?.connection;
      },
      { timeout: 60_000, message: `a connected peer of user ${userId} in ${room}` },
    )
    .toBe('connected');
  return id;
}

/**
 * The socket id of `other`'s page in that channel's room, once `page` holds a connected peer for it: the one
 * device meant when a user has several pages in the room (a user's peers cannot be told apart by user id).
 */
export async function connectedPageIn(page: Page, room: string, other: Page): Promise<string> {
  let id = '';
  await expect
    .poll(
      async () => {
        id = (await other.evaluate((key) => window.__talkgroupRooms?.[key]?.selfId ?? '', room)) ?? '';
        if (!id) return undefined;
        return page.evaluate(
          ([key, peerId]) => window.__talkgroupRooms?.[key]?.peers().find((peer) => peer.id === peerId)?.connection,
          [room, id] as const,
        );
      },
      { timeout: 60_000, message: `a connected peer for that page in ${room}` },
    )
    .toBe('connected');
  return id;
}

export async function playedIn(page: Page, room: string, peerId: string): Promise<number> {
  return page.evaluate(
    async ([key, id]) => (await window.__talkgroupRooms?.[key]?.inboundAudio(id))?.playedSeconds ?? 0,
    [room, peerId] as const,
  );
}

export async function peakIn(page: Page, room: string, peerId: string): Promise<number> {
  return page.evaluate(([key, id]) => window.__talkgroupRooms?.[key]?.recentPeak(id) ?? 0, [room, peerId] as const);
}

/** Silence received from a peer once a second of it has played (the level it is heard against). */
export async function silenceIn(page: Page, room: string, peerId: string): Promise<number> {
  const received = await page.evaluate(
    async ([key, id]) => (await window.__talkgroupRooms?.[key]?.inboundAudio(id))?.packetsReceived ?? 0,
    [room, peerId] as const,
  );
  // Nothing received yet (see measureSilence): the silence is what plays, nothing.
  if (received === 0) return peakIn(page, room, peerId);
  const first = await playedIn(page, room, peerId);
  await expect
    .poll(() => playedIn(page, room, peerId), { timeout: 60_000, message: `received silence in ${room}` })
    .toBeGreaterThan(first + 1);
  return peakIn(page, room, peerId);
}

export async function inboundBytes(page: Page, peerId: string): Promise<number> {
  return page.evaluate(async (id) => (await window.__talkgroupRoom?.inboundAudio(id))?.bytesReceived ?? 0, peerId);
}

declare global {
  interface Window {
    /** Each voice room of the page by its channel's room key (a page in several channels). */
    __talkgroupRooms?: Record<
      string,
      {
        /** The page's own socket id in the room: the peer id the other pages know it by. */
        selfId: string | null;
        peers(): Array<{ id: string; userId: number | null; connection: string }>;
        recentPeak(peerId: string): number;
        /** The audio level the last received RTP packets carry (RFC 6464, set by the sender), 0..1. */
        rtpLevel(peerId: string): number;
        inboundAudio(peerId: string): Promise<{ playedSeconds: number; packetsReceived: number } | null>;
      }
    >;
    __talkgroupDiagnostics?: boolean;
    __talkgroupRoom?: {
      selfId: string | null;
      micOn: boolean;
      micReady: boolean;
      lastMicOnAt: number;
      peers(): HookPeer[];
      levels(): Record<string, number>;
      recentPeak(peerId: string): number;
      rtpLevel(peerId: string): number;
      waitForLevel(peerId: string, threshold: number, timeoutMs: number, above?: boolean): Promise<number | null>;
      /** Absent in builds before it came. */
      waitForOnset?(peerId: string, threshold: number, timeoutMs: number): Promise<number | null>;
      inboundAudio(peerId: string): Promise<{
        bytesReceived: number;
        packetsReceived: number;
        playedSeconds: number;
        jitterBufferMs: number;
      } | null>;
      /** Absent in builds before it came. */
      talkingSince?(peerId: string): number;
    };
  }
}
