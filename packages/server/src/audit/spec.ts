/** How one audited call is written (auditing.ts lists them, desk-specs.ts and session-specs.ts add theirs). */
import type { AuditAction } from '@talkgroup/protocol';
import type { TokenOwner } from '../http/route.ts';
import type { TargetType } from './snapshots.ts';

type Loose = any;

export interface AuditSpec {
  action: AuditAction;
  targetType: TargetType;
  /** The target's id from the body (known before the change) or, for a creation, from the answer. */
  targetId?: (body: Loose, answer?: Loose, auth?: TokenOwner) => number | undefined | Promise<number | undefined>;
  /** For calls on many rows (imports, deletions): what was done, instead of a before/after of one target. */
  summary?: (body: Loose, answer: Loose) => Record<string, unknown>;
  /**
   * Written just after the change rather than in its transaction: a user import hashes hundreds of passwords,
   * and one transaction around it would hold SQLite's only writer for that long.
   */
  afterwards?: boolean;
  /**
   * A refusal of the call (403) is written too, once its transaction rolled back, as this action (`<action>_refused`),
   * the refusal's code in `changes.refused` (issue 69: who tried to move an area channel's zone).
   */
  refusals?: AuditAction;
}
