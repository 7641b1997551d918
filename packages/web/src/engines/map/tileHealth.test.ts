/**
 * The tile sources' health (issue 58): one tile asked first, then one again after 5 s, 10, 20… while it fails,
 * the layer's tiles counted once it is up, and a move of the map asking again at most once a second.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FAILURES_BEFORE_DOWN,
  LAST_RETRY_MS,
  PROBE_TIMEOUT_MS,
  tileHealth,
  tileLayerEvents,
  tileUrl,
} from './tileHealth.ts';

/** The images the probes made: each answers when the test says. */
const images: FakeImage[] = [];
class FakeImage {
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  src = '';
  constructor() {
    images.push(this);
  }
}
const answer = (loaded: boolean) => {
  const image = images.at(-1) as FakeImage;
  if (loaded) image.onload?.();
  else image.onerror?.();
};

let counter = 0;
/** A template of its own for each test: the records are the module's, shared by the page's maps. */
const freshTemplate = () => `https://tiles${++counter}.example/{z}/{x}/{y}.png`;
const here = () => ({ z: 13, x: 4149, y: 2818 });

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('Image', FakeImage);
  images.length = 0;
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('tileHealth', () => {
  it('fills a template as Leaflet does', () => {
    expect(tileUrl('https://{s}.t.example/{z}/{x}/{y}{r}.png', 3, 4, 1)).toBe('https://a.t.example/3/4/1.png');
    expect(tileUrl('https://t.example/{z}/{x}/{-y}.png', 3, 4, 1)).toBe('https://t.example/3/4/6.png');
  });

  it('asks one tile, then again after growing delays while it fails, and is up when one loads', async () => {
    const template = freshTemplate();
    const detach = tileHealth.attach(template, here);
    expect(tileHealth.state(template)).toBe('unknown');
    await vi.advanceTimersByTimeAsync(0);
    expect(images.map((image) => image.src)).toEqual([`https://tiles${counter}.example/13/4149/2818.png`]);
    answer(false);
    expect(tileHealth.state(template)).toBe('down');

    // 5 s, then 10 s, 20 s… up to 5 minutes: one tile each time, nothing between.
    for (const wait of [5_000, 10_000, 20_000, 40_000, 80_000, 160_000, LAST_RETRY_MS, LAST_RETRY_MS]) {
      const before = images.length;
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(images.length).toBe(before);
      await vi.advanceTimersByTimeAsync(1);
      expect(images.length).toBe(before + 1);
      answer(false);
    }
    // A tile that loads: up.
    await vi.advanceTimersByTimeAsync(LAST_RETRY_MS);
    answer(true);
    expect(tileHealth.state(template)).toBe('up');
    detach();
  });

  it('counts the layer’s failures in a row, a loaded tile between starting over', async () => {
    const template = freshTemplate();
    const detach = tileHealth.attach(template, here);
    await vi.advanceTimersByTimeAsync(0);
    answer(true);
    for (let i = 1; i < FAILURES_BEFORE_DOWN; i += 1) tileHealth.failed(template);
    tileHealth.loaded(template);
    for (let i = 1; i < FAILURES_BEFORE_DOWN; i += 1) tileHealth.failed(template);
    expect(tileHealth.state(template)).toBe('up');
    tileHealth.failed(template);
    expect(tileHealth.state(template)).toBe('down');
    const asked = images.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(images.length).toBe(asked + 1);
    detach();
  });

  it('asks again when the map moves, at most once a second, and not once no map shows it', async () => {
    const template = freshTemplate();
    const detach = tileHealth.attach(template, here);
    await vi.advanceTimersByTimeAsync(0);
    answer(false);
    tileHealth.moved(template);
    expect(images.length).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    tileHealth.moved(template);
    tileHealth.moved(template);
    expect(images.length).toBe(2);
    answer(false);
    detach();
    await vi.advanceTimersByTimeAsync(LAST_RETRY_MS * 2);
    expect(images.length).toBe(2);
  });

  it('counts a tile that never answers as failed', async () => {
    const template = freshTemplate();
    const detach = tileHealth.attach(template, here);
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS - 1);
    expect(tileHealth.state(template)).toBe('unknown');
    await vi.advanceTimersByTimeAsync(1);
    expect(tileHealth.state(template)).toBe('down');
    expect(images[0].src).toBe('');
    detach();
  });

  it('counts a layer’s tile that hangs as failed: a server that stops answering after it worked goes down', async () => {
    const template = freshTemplate();
    const detach = tileHealth.attach(template, here);
    await vi.advanceTimersByTimeAsync(0);
    answer(true);
    const events = tileLayerEvents(template);
    // Tiles that answer in time, or are taken off before they do, count nothing.
    const quick = { tile: {} as HTMLElement };
    events.tileloadstart(quick);
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS - 1);
    events.tileload(quick);
    const goneBefore = { tile: {} as HTMLElement };
    events.tileloadstart(goneBefore);
    events.tileunload(goneBefore);
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS * 2);
    expect(tileHealth.state(template)).toBe('up');
    // A whole view of tiles that never answer: down once they are overdue, and retried later.
    for (let i = 0; i < FAILURES_BEFORE_DOWN; i += 1) events.tileloadstart({ tile: {} as HTMLElement });
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS - 1);
    expect(tileHealth.state(template)).toBe('up');
    await vi.advanceTimersByTimeAsync(1);
    expect(tileHealth.state(template)).toBe('down');
    const asked = images.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(images.length).toBe(asked + 1);
    detach();
  });
});
