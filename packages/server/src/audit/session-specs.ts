/**
 * How the calls on one's sign-in means and sessions are audited (issues 38 and 60), beside auditing.ts's table:
 * passkeys added and deleted (the target is the account itself) and a session ended. A device disabled by an
 * administrator writes its own row (devices/routes.ts, issue 69: its device is told only after the commit).
 */
import { type Call, DeletePasskey, EndSession, FinishPasskeyRegistration } from '@talkgroup/protocol';
import type { Db } from '../db/schema.ts';
import type { AuditSpec } from './spec.ts';

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
  ];
}
