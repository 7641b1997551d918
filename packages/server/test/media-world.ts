/**
 * Steps of the media server's tests: a socket joins a channel and its page's end connects to Janus the way
 * the app's ServerTransport does (a talker offers over `media_offer`, a listener answers `media_watch`), and
 * judgements of what a listener hears, read from one spectrum (a tone heard, another silent at that moment).
 */
import { expect } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import type { Account } from './harness.ts';
import type { MediaPage } from './media-browser.ts';
import { connect, type TestClient } from './realtime-harness.ts';

/** A tone is heard above this (a tone at 0.3 of full scale reads about -25 dB), silent below SILENT_DB. */
export const HEARD_DB = -50;
export const SILENT_DB = -70;

/** Bounds for a state to come (a busy machine is slow; never a measure of speed). */
export const MEDIA_WAIT = { timeout: 30_000, interval: 100 };

export interface MediaParty {
  client: TestClient;
  name: string;
  room: string;
}

export interface JoinOptions {
  /** Hz of the tone the page sends (a talker); none: a listener (listen mode, the channel's mix). */
  tone?: number;
  /** The page enables its track at once, floor or not (a client that ignores the floor). */
  enabled?: boolean;
  /** Joins in talk mode but without a microphone (offers receive-only). */
  mode?: 'talk' | 'listen';
}

/** Joins the channel on `url` and connects the page's end to the media server; resolves once connected. */
export async function joinMedia(
  page: MediaPage,
  url: string,
  account: Account,
  channel: Pick<ChannelSummary, 'rtcSession'>,
  name: string,
  options: JoinOptions = {},
  track: (client: TestClient) => TestClient = (client) => client,
): Promise<MediaParty> {
  const client = track(await connect(url, account.token));
  const room = channel.rtcSession;
  const mode = options.mode ?? (options.tone ? 'talk' : 'listen');
  client.socket.emit('join_room', { room, mode });
  const plane = await client.next('media_plane');
  expect(plane.kind).toBe('server');
  await client.next('all_users');
  const party = { client, name, room };
  await connectMedia(page, party, options);
  return party;
}

/**
 * The page's ends (again, after a reset) through the media server, as the app's ServerTransport makes them: a
 * page that talks publishes its microphone (`media_offer`, leg `send`: the end named `name`), and every page
 * hears the channel's stream (`media_watch`: the end `name.rx`, which `hears` reads).
 */
export async function connectMedia(page: MediaPage, party: MediaParty, options: JoinOptions = {}): Promise<void> {
  const { client, name, room } = party;
  await page.hangUp(name);
  await page.hangUp(receiving(name));
  const mode = options.mode ?? (options.tone ? 'talk' : 'listen');
  if (mode === 'talk' && options.tone) {
    const sdp = await page.offer(name, { tone: options.tone, enabled: options.enabled, sendOnly: true });
    const answer: any = await client.socket.timeout(20_000).emitWithAck('media_offer', { room, sdp, leg: 'send' });
    if (!answer.success) throw new Error(`media_offer refused: ${answer.result}`);
    await page.answer(name, answer.sdp);
  }
  const offered: any = await client.socket.timeout(20_000).emitWithAck('media_watch', { room });
  if (!offered.success) throw new Error(`media_watch refused: ${offered.result}`);
  const sdp = await page.answerOffer(receiving(name), offered.sdp);
  const done: any = await client.socket.timeout(20_000).emitWithAck('media_answer', { room, sdp });
  if (!done.success) throw new Error(`media_answer refused: ${done.result}`);
  for (const end of mode === 'talk' && options.tone ? [name, receiving(name)] : [receiving(name)])
    await expect.poll(() => page.state(end), { ...MEDIA_WAIT, message: `${end} connected` }).toBe('connected');
}

/** The end that hears the channel, of a page named `name`. */
export const receiving = (name: string) => `${name}.rx`;

/**
 * An older page of the app, or the end a spec client's offer makes: one connection that sends and receives,
 * answered by the channel's mixer (`media_offer` without a leg). Its end is `name` (it hears on it too).
 */
export async function connectBridged(page: MediaPage, party: MediaParty, tone: number): Promise<void> {
  const { client, name, room } = party;
  await page.hangUp(name);
  const sdp = await page.offer(name, { tone });
  const answer: any = await client.socket.timeout(20_000).emitWithAck('media_offer', { room, sdp });
  if (!answer.success) throw new Error(`media_offer refused: ${answer.result}`);
  await page.answer(name, answer.sdp);
  await expect.poll(() => page.state(name), { ...MEDIA_WAIT, message: `${name} connected` }).toBe('connected');
}

/** Presses (floor_request) and, granted, enables the page's track as the app does. */
export async function press(page: MediaPage, party: MediaParty): Promise<void> {
  const answer: any = await party.client.socket.timeout(20_000).emitWithAck('floor_request', { room: party.room });
  expect(answer).toEqual({ granted: true, grantId: expect.any(String) });
  await page.talk(party.name, true);
}

/** Releases the floor; `keepSending`: the page leaves its track on (a client that ignores the floor). */
export async function release(page: MediaPage, party: MediaParty, keepSending = false): Promise<void> {
  await party.client.socket.timeout(20_000).emitWithAck('floor_release', { room: party.room });
  if (!keepSending) await page.talk(party.name, false);
}

/**
 * Waits until `listener` hears `heard` and, in the same reading, none of `silent` (on its receiving end, or on
 * its one end when it has no other: a bridged page).
 */
export async function hears(page: MediaPage, listener: string, heard: number, silent: number[] = []): Promise<void> {
  await expect
    .poll(
      async () => {
        const [level, ...others] = await page.levels(await earOf(page, listener), [heard, ...silent]);
        return level > HEARD_DB && others.every((other) => other < SILENT_DB);
      },
      {
        ...MEDIA_WAIT,
        message: `${listener} hears ${heard} Hz${silent.length ? ` and not ${silent.join(', ')}` : ''}`,
      },
    )
    .toBe(true);
}

/** Waits until `listener` hears none of these tones. */
export async function silent(page: MediaPage, listener: string, tones: number[]): Promise<void> {
  await expect
    .poll(async () => (await page.levels(await earOf(page, listener), tones)).every((level) => level < SILENT_DB), {
      ...MEDIA_WAIT,
      message: `${listener} hears none of ${tones.join(', ')} Hz`,
    })
    .toBe(true);
}

/** Where a page hears: its receiving end if it has one, else its one end. */
async function earOf(page: MediaPage, name: string): Promise<string> {
  return (await page.state(receiving(name))) === 'none' ? name : receiving(name);
}
