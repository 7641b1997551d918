import { SAFETY_DEFAULTS } from '@talkgroup/protocol';
import { describe, expect, it } from 'vitest';
import { safetyChange } from './safetyChange.ts';

describe('safetyChange', () => {
  it('sends only what the form changed, so that the stored lone-work figures are not set again', () => {
    expect(safetyChange(SAFETY_DEFAULTS, { ...SAFETY_DEFAULTS, emergencyOpenMic: 'any_alert' })).toEqual({
      emergencyOpenMic: 'any_alert',
    });
    const draft = {
      ...SAFETY_DEFAULTS,
      loneWorker: { ...SAFETY_DEFAULTS.loneWorker, graceSeconds: 600, roles: ['member' as const] },
      ambientListening: 'announced' as const,
    };
    expect(safetyChange(SAFETY_DEFAULTS, draft)).toEqual({
      loneWorker: { graceSeconds: 600, roles: ['member'] },
      ambientListening: 'announced',
    });
    expect(safetyChange(SAFETY_DEFAULTS, SAFETY_DEFAULTS)).toEqual({});
  });
});
