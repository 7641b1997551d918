/**
 * How the audit log writes a changed value (issue 70): the ids of users and channels by their names (getAuditLog's
 * `names`; an id whose user or channel is gone stays "#id"), lists joined, an object as its fields.
 */
import { AUDIT_ID_FIELDS } from '@talkgroup/protocol';

export interface AuditNames {
  users: Record<string, string>;
  channels: Record<string, string>;
}

export const NO_NAMES: AuditNames = { users: {}, channels: {} };

export interface ChangeWords {
  /** A field's name in the reader's language (its key when the catalogue has none). */
  field: (field: string) => string;
  yes: string;
  no: string;
  /** Between a field and its value: " : " in French, ": " in English and German. */
  colon: string;
}

export function changeText(value: unknown, field: string, names: AuditNames, words: ChangeWords): string {
  if (value === null || value === undefined || value === '') return '—';
  const kind = AUDIT_ID_FIELDS[field];
  if (Array.isArray(value))
    return value.length === 0 ? '—' : value.map((item) => changeText(item, field, names, words)).join(', ');
  if (typeof value === 'object')
    return Object.entries(value)
      .map(([inner, innerValue]) => `${words.field(inner)}${words.colon}${changeText(innerValue, inner, names, words)}`)
      .join('; ');
  if (kind && typeof value === 'number') return names[kind][String(value)] ?? `#${value}`;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  return String(value);
}
