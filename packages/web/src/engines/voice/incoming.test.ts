/** Busy mutes one channel's received voices at once, and only those (issue 34). */
import { describe, expect, it } from 'vitest';
import { playsIncoming, setIncomingMuted, stopsIncoming } from './incoming.ts';

const element = () => ({ muted: false }) as HTMLAudioElement;

describe('received voices while busy', () => {
  it('mutes the busy room’s elements, new ones too, and never another room’s or a private call’s', () => {
    const atelier = element();
    const call = element();
    playsIncoming(atelier, false, 'atelier');
    playsIncoming(call, false, 'call-7');
    setIncomingMuted('atelier', true);
    expect([atelier.muted, call.muted]).toEqual([true, false]);
    const joinedLater = element();
    playsIncoming(joinedLater, false, 'atelier');
    expect(joinedLater.muted).toBe(true);

    setIncomingMuted('atelier', false);
    expect([atelier.muted, joinedLater.muted, call.muted]).toEqual([false, false, false]);
    for (const each of [atelier, call, joinedLater]) stopsIncoming(each);
  });

  it('keeps an element that plays through an output muted whatever the status', () => {
    const throughOutput = element();
    playsIncoming(throughOutput, true, 'atelier');
    expect(throughOutput.muted).toBe(true);
    setIncomingMuted('atelier', false);
    expect(throughOutput.muted).toBe(true);
    stopsIncoming(throughOutput);
    setIncomingMuted('atelier', true);
    setIncomingMuted('atelier', false);
  });
});
