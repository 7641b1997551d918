/**
 * getAllChannels kept up to date (lists/live-list.ts). Each channel is two pieces: what changes rarely (its row
 * and members) and what changes all day (connected count, latest activity), so that a channel's activity
 * rebuilds a few bytes, not its member list.
 */
import type { Channel } from '@talkgroup/protocol';
import type { ListSource } from '../lists/live-list.ts';
import { answerPieces, type Piece, piece } from '../lists/pieces.ts';
import type { ChannelActivity, ChannelStore } from './store.ts';

interface ListedChannel {
  id: number;
  createdAt: string;
  /** The JSON up to its members, the comma before it included (all but the first channel). */
  main: Piece;
  /** From its connected count to its closing brace. */
  tail: Piece;
}

interface ChannelsState {
  /** Newest first (created_at desc, id desc), as the store orders them. */
  listed: ListedChannel[];
  byId: Map<number, ListedChannel>;
}

const COMMA = 0x2c;

const textPiece = (text: string) => piece(Buffer.from(text));

/** The activity fields as they end a channel's JSON. */
const tailOf = (activity: ChannelActivity) => textPiece(`,${JSON.stringify(activity).slice(1)}`);

/** A channel's JSON cut after its members: both halves are bytes of JSON.stringify(channel). */
function listedOf(channel: Channel, comma: boolean): ListedChannel {
  const fields = Object.entries(channel);
  const cut = fields.findIndex(([key]) => key === 'users') + 1;
  const rest = fields.slice(cut);
  return {
    id: channel.id,
    createdAt: channel.createdAt,
    main: textPiece(`${comma ? ',' : ''}${JSON.stringify(Object.fromEntries(fields.slice(0, cut))).slice(0, -1)}`),
    tail: rest.length > 0 ? textPiece(`,${JSON.stringify(Object.fromEntries(rest)).slice(1)}`) : textPiece('}'),
  };
}

const before = (a: ListedChannel, b: ListedChannel) =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

/** The old piece when the bytes are the same: it keeps its compressed forms. */
const same = (old: Piece, fresh: Piece) => (old.bytes.equals(fresh.bytes) ? old : fresh);

/** Every channel but the first starts with the comma that separates it from the one before. */
function withCommas(listed: ListedChannel[]): void {
  for (const [i, channel] of listed.entries()) {
    const has = channel.main.bytes[0] === COMMA;
    if (has === i > 0) continue;
    channel.main = piece(has ? channel.main.bytes.subarray(1) : Buffer.concat([Buffer.from(','), channel.main.bytes]));
  }
}

export function channelsListSource(channels: ChannelStore): ListSource<ChannelsState> {
  return {
    async build() {
      const listed = (await channels.all()).map((channel, i) => listedOf(channel, i > 0));
      return { listed, byId: new Map(listed.map((channel) => [channel.id, channel])) };
    },

    async apply(state, changes) {
      if (changes.channels.size === 0 && changes.channelActivity.size === 0) return true;
      let moved = false;
      if (changes.channels.size > 0) {
        const ids = [...changes.channels];
        const found = new Map((await channels.listedByIds(ids)).map((channel) => [channel.id, channel]));
        for (const id of ids) {
          const old = state.byId.get(id);
          const channel = found.get(id);
          if (old && channel && old.createdAt === channel.createdAt) {
            const now = listedOf(channel, old.main.bytes[0] === COMMA);
            old.main = same(old.main, now.main);
            old.tail = same(old.tail, now.tail);
            continue;
          }
          moved = true;
          if (old) state.byId.delete(id);
          if (channel) state.byId.set(id, listedOf(channel, false));
        }
      }
      // Only the activity: the channels not built again above.
      const activityOnly = [...changes.channelActivity].filter((id) => !changes.channels.has(id) && state.byId.has(id));
      if (activityOnly.length > 0) {
        for (const [id, activity] of await channels.activityOf(activityOnly)) {
          const channel = state.byId.get(id);
          if (channel) channel.tail = same(channel.tail, tailOf(activity));
        }
      }
      if (moved) state.listed = [...state.byId.values()].sort((a, b) => (before(a, b) ? -1 : 1));
      withCommas(state.listed);
      return true;
    },

    pieces: (state) => answerPieces(state.listed.flatMap((channel) => [channel.main, channel.tail])),
  };
}
