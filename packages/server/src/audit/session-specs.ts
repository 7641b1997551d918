/**
 * How the calls on one's sign-in means and sessions are audited (issues 38 and 60), beside auditing.ts's table:
 * passkeys added and deleted (the target is the account itself), a session ended, and a device disabled by an
 * administrator (the target is whose device it was).
 */
import { type Call, DeletePasskey, DisableDevice, EndSession, FinishPasskeyRegistration } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';
import type { AuditSpec } from './auditing.ts';

export function sessionSpecs(db: Db): Array<[Call, AuditSpec]> {
  return [
    [
      FinishPasskeyRegistration,
      {
        action: 'passkey.add',
        targetType: 'user',
        targetId: (_b, _answer, auth) => auth?.userId,
        summary: (_b, answer) => ({ passkey: answer.res.name }),
      },
    ],
    [
      DeletePasskey,
      {
        action: 'passkey.delete',
        targetType: 'user',
        targetId: (_b, _answer, auth) => auth?.userId,
        summary: (b) => ({ passkeyId: Number(b.id) }),
      },
    ],
    [
      EndSession,
      {
        action: 'session.end',
        targetType: 'user',
        // Read before the session goes: afterwards nobody owns it.
        targetId: async (b) =>
          (await db.selectFrom('sessions').select('user_id').where('id', '=', Number(b.sessionId)).executeTakeFirst())
            ?.user_id,
      },
    ],
    // Issue 60: who disabled whose device (the answer names the owner), which session and what device it was.
    [
      DisableDevice,
      {
        action: 'session.disable_device',
        targetType: 'user',
        targetId: (_b, answer) => answer?.res?.userId,
        summary: (b, answer) => ({ sessionId: Number(b.sessionId), device: answer.res.device }),
      },
    ],
  ];
}
