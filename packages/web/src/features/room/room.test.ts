import { describe, expect, it } from 'vitest';
import { markerLabel } from '../../engines/map/markerLabel.ts';
import { micRequestOf, parseCallLink } from './callLink.ts';
import { gridBand, gridColumns } from './participants/gridLayout.ts';

describe('map marker label', () => {
  it('takes the first, second and last letters of the pseudo in upper case', () => {
    expect(markerLabel('mimi')).toBe('MII');
    expect(markerLabel('  jean-luc ')).toBe('JEC');
    expect(markerLabel('éloïse')).toBe('ÉLE');
  });
  it('keeps a short pseudo whole and marks a missing one', () => {
    expect(markerLabel('al')).toBe('AL');
    expect(markerLabel('')).toBe('?');
  });
});

describe('participants grid layout', () => {
  it('has one layout per band of participants: 1, 2–4, 5–6, 7–8 and 9–13', () => {
    expect([1, 2, 4, 5, 6, 7, 8, 9, 13].map(gridColumns)).toEqual([1, 2, 2, 3, 3, 4, 4, 5, 5]);
    expect([0, 1, 3, 6, 8, 12].map(gridBand)).toEqual(['0', '1', '2-4', '5-6', '7-8', '9-13']);
  });
});

describe('user call view link', () => {
  it('reads channelId, userId and token from the URL-encoded JSON of the last segment', () => {
    const data = encodeURIComponent(JSON.stringify({ channelId: 4, userId: '12', token: 'abc' }));
    expect(parseCallLink(data)).toEqual({ channelId: 4, userId: 12, token: 'abc' });
    expect(parseCallLink(decodeURIComponent(data))).toEqual({ channelId: 4, userId: 12, token: 'abc' });
  });
  it('refuses a link without a token or with a bad id', () => {
    expect(parseCallLink(encodeURIComponent(JSON.stringify({ channelId: 4, userId: 1 })))).toBeNull();
    expect(parseCallLink(encodeURIComponent(JSON.stringify({ channelId: 'x', userId: 1, token: 't' })))).toBeNull();
    expect(parseCallLink('%E0%A4%A')).toBeNull();
    expect(parseCallLink(undefined)).toBeNull();
  });
});

describe('window events that switch the microphone', () => {
  it('understands words, booleans and objects, and ignores other messages', () => {
    expect(micRequestOf('micOn')).toBe(true);
    expect(micRequestOf('mute')).toBe(false);
    expect(micRequestOf({ type: 'micState', micState: true })).toBe(true);
    expect(micRequestOf('{"micState":false}')).toBe(false);
    expect(micRequestOf(false)).toBe(false);
    expect(micRequestOf({ hello: 1 })).toBeNull();
    expect(micRequestOf('webpackHotUpdate')).toBeNull();
  });
});
