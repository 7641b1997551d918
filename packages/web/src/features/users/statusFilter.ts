/** The users list's filter by status (issue 49). */
import type { MemberStatusEntry } from '../../api/statuses.ts';

/** Every user, those without a status, or those with this status. */
export type StatusFilter = 'all' | 'none' | number;

export function matchesStatus(filter: StatusFilter, entry: MemberStatusEntry | undefined): boolean {
  if (filter === 'all') return true;
  if (filter === 'none') return entry === undefined;
  return entry?.status.id === filter;
}
