/**
 * getAllUsers kept up to date (lists/live-list.ts): each user's JSON in blocks (lists/ordered-blocks.ts); a
 * change to a user (its row, channels, sockets, latest position or activity; migration 0008) builds it again.
 */
import type { User } from '@talkgroup/protocol';
import type { ListSource } from '../lists/live-list.ts';
import { type Entry, type OrderedBlocks, orderedBlocks } from '../lists/ordered-blocks.ts';
import { answerPieces } from '../lists/pieces.ts';
import type { UserStore } from './store.ts';

const entryOf = (user: User): Entry => ({ id: user.id, createdAt: user.createdAt, json: JSON.stringify(user) });

export function usersListSource(users: UserStore): ListSource<OrderedBlocks> {
  return {
    async build() {
      return orderedBlocks((await users.all()).map(entryOf));
    },

    async apply(blocks, changes) {
      if (changes.users.size === 0) return true;
      // A change to most users (an import, a rename of a channel everyone is in): one pass is quicker.
      if (changes.users.size > 1000 && changes.users.size > blocks.size / 4) return false;
      const ids = [...changes.users];
      const listed = await users.listedByIds(ids);
      const found = new Set(listed.map((user) => user.id));
      blocks.apply(
        listed.map(entryOf),
        ids.filter((id) => !found.has(id)),
      );
      return true;
    },

    pieces: (blocks) => answerPieces(blocks.pieces()),
  };
}
