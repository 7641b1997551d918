/**
 * The names behind the ids an audit page's changes hold (issue 70): "members: 3, 4, 6" is read as the members'
 * names. Resolved when the page is read rather than stored in each row, so that rows written before still read
 * well; an id whose user or channel is gone stays an id.
 */
import { AUDIT_ID_FIELDS, type AuditEntry } from '@talkgroup/protocol';

export interface IdsToName {
  users: Set<number>;
  channels: Set<number>;
}

/** Every user id and channel id under a field of AUDIT_ID_FIELDS, at any depth of a value. */
function collect(value: unknown, kind: 'users' | 'channels' | undefined, into: IdsToName): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, kind, into);
  } else if (value !== null && typeof value === 'object') {
    for (const [field, inner] of Object.entries(value)) collect(inner, AUDIT_ID_FIELDS[field], into);
  } else if (kind && typeof value === 'number' && Number.isInteger(value)) {
    into[kind].add(value);
  }
}

export function idsIn(entries: readonly AuditEntry[]): IdsToName {
  const ids: IdsToName = { users: new Set(), channels: new Set() };
  for (const entry of entries)
    for (const [field, change] of Object.entries(entry.changes ?? {})) {
      collect(change.before, AUDIT_ID_FIELDS[field], ids);
      collect(change.after, AUDIT_ID_FIELDS[field], ids);
    }
  return ids;
}
