/** What /settings' "Worker safety" form sends when saved: the parts it changed (issue 69). */
import type { SafetySettings } from '@talkgroup/protocol';

export type SafetyChange = {
  loneWorker?: Partial<SafetySettings['loneWorker']>;
  manDown?: Partial<SafetySettings['manDown']>;
  ambientListening?: SafetySettings['ambientListening'];
  emergencyOpenMic?: SafetySettings['emergencyOpenMic'];
};

/**
 * What the form changed, field by field: the server bounds only what a save sets (LONE_WORKER_MIN_SECONDS), so a
 * save of another choice must not send the stored lone-work figures again (the default grace, 120 s, is under the
 * default minimum, and the whole form was refused for it).
 */
export function safetyChange(stored: SafetySettings, draft: SafetySettings): SafetyChange {
  const change: SafetyChange = {};
  const differs = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);
  const part = <P extends 'loneWorker' | 'manDown'>(name: P) => {
    const fields = Object.fromEntries(
      Object.entries(draft[name]).filter(([field, value]) =>
        differs(value, stored[name][field as keyof SafetySettings[P]]),
      ),
    ) as Partial<SafetySettings[P]>;
    return Object.keys(fields).length > 0 ? fields : undefined;
  };
  const loneWorker = part('loneWorker');
  const manDown = part('manDown');
  if (loneWorker) change.loneWorker = loneWorker;
  if (manDown) change.manDown = manDown;
  if (draft.ambientListening !== stored.ambientListening) change.ambientListening = draft.ambientListening;
  if (draft.emergencyOpenMic !== stored.emergencyOpenMic) change.emergencyOpenMic = draft.emergencyOpenMic;
  return change;
}
