/** A hardware talk key is recognised again by its code, its value or its key number, and named for a person. */
import { describe, expect, it } from 'vitest';
import { keyIdOf, keyNameOf } from './useTalkKey.ts';

describe('the talk key', () => {
  it('is recognised by its code first, then its value, then the legacy key number', () => {
    expect(keyIdOf({ code: 'F8', key: 'F8', keyCode: 119 })).toBe('code:F8');
    expect(keyIdOf({ code: '', key: 'VolumeUp', keyCode: 175 })).toBe('key:VolumeUp');
    // A rugged phone's PTT key: no code, no name, only a number.
    expect(keyIdOf({ code: '', key: 'Unidentified', keyCode: 286 })).toBe('keyCode:286');
  });

  it('is named as a person reads it', () => {
    expect(keyNameOf({ code: 'KeyA', key: 'a', keyCode: 65 })).toBe('A');
    expect(keyNameOf({ code: 'Space', key: ' ', keyCode: 32 })).toBe('Space');
    expect(keyNameOf({ code: 'F8', key: 'F8', keyCode: 119 })).toBe('F8');
    expect(keyNameOf({ code: 'MediaPlayPause', key: 'Unidentified', keyCode: 179 })).toBe('MediaPlayPause');
    expect(keyNameOf({ code: '', key: 'Unidentified', keyCode: 286 })).toBe('Key 286');
  });
});
