/** What an account allows its open sockets: read at the handshake, and again by realtime/room-guard.ts when rights change. */
import { type Role, talkPriorityOf } from '@talkgroup/protocol';
import type { Selectable } from 'kysely';
import type { UsersTable } from '../db/schema.ts';

export interface AccountRights {
  role: Role;
  mapRight: boolean;
  /** Issue 59: the priority its presses claim: the user's own, or its role's default. */
  talkPriority: number;
}

export function rightsOfRow(row: Pick<Selectable<UsersTable>, 'role' | 'map_right' | 'talk_priority'>): AccountRights {
  return {
    role: row.role,
    mapRight: row.map_right === 1,
    talkPriority: talkPriorityOf({ role: row.role, talkPriority: row.talk_priority }),
  };
}
