/**
 * What the paged users list searches (getUsersPage, issue 18): a user's first name, last name, login, pseudo and
 * display name, folded like the web app's own search (protocol's foldText), one per line so that a query never
 * matches across two of them. Kept in users.search_text (migration 0009) by the users store.
 */
import { foldText } from '@talkgroup/protocol';

export interface SearchedNames {
  first_name: string;
  last_name: string;
  identifier: string;
  pseudo: string;
  display_name: string;
}

export function searchTextOf(user: SearchedNames): string {
  return foldText([user.first_name, user.last_name, user.identifier, user.pseudo, user.display_name].join('\n'));
}

/** A LIKE pattern that finds `query` anywhere (its %, _ and \ taken literally; used with ESCAPE '\'). */
export function containsPattern(query: string): string {
  return `%${foldText(query.trim()).replace(/[\\%_]/g, '\\$&')}%`;
}
