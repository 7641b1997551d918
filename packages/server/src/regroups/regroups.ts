/**
 * Dynamic regrouping and the remote change of a member's selected channel (issue 59, items 3 and 4): the rules
 * of createRegroup, endRegroup, getRegroups and selectChannelFor, and of the channel a member's /talk is on.
 * A regroup is a channel like the others (temporary), so the floor, recording, reports and rights need no
 * special case; what is its own is who it holds, when it ends and where its members go back to.
 */
import {
  may,
  mayActOn,
  REGROUP_OPEN_MAX,
  type Regroup,
  type Selection,
  type SelectionReason,
} from '@talkgroup/protocol';
import type { AuditStore } from '../audit/store.ts';
import type { ChannelAccess, Reader } from '../channels/access.ts';
import type { ChannelStore } from '../channels/store.ts';
import { isUniqueViolation } from '../db/unique.ts';
import type { EventBus } from '../events.ts';
import { conflict, forbidden, HttpError, invalidInput, notFound } from '../http/errors.ts';
import type { Deadlines } from '../process/deadline-sweep.ts';
import type { Person, RegroupRow, RegroupStore, SelectionRow } from './store.ts';

export interface RegroupDeps {
  store: RegroupStore;
  access: ChannelAccess;
  channels: ChannelStore;
  events: EventBus;
  /** An expiry is the server's own change: audited here (calls are audited by their route, audit/auditing.ts). */
  audit: Pick<AuditStore, 'write'>;
  /** Runs `work` in one transaction (its events wait for the commit). */
  transaction: <T>(work: () => Promise<T>) => Promise<T>;
  now?: () => number;
}

export interface CreateRegroupBody {
  name: string;
  userIds: number[];
  channelIds?: number[];
  minutes: number;
}

const toSelection = (row: SelectionRow, channelName: string): Selection => ({
  channelId: row.channel_id,
  channelName,
  reason: row.reason,
  by: row.by_id !== null && row.by_name !== null ? { userId: row.by_id, name: row.by_name } : null,
  selectedAt: row.selected_at,
});

export function regroups(deps: RegroupDeps) {
  const { store, access, channels, events } = deps;
  const now = deps.now ?? Date.now;

  async function personOf(userId: number): Promise<Person> {
    const [person] = await store.people([userId]);
    if (!person) throw notFound('user_not_found');
    // Its name only: the person travels in selected_channel_changed and the selection's row.
    return { userId: person.userId, name: person.name };
  }

  async function toRegroup(row: RegroupRow): Promise<Regroup> {
    const members = await store.members(row.id);
    return {
      regroupId: row.id,
      name: row.name,
      channelId: row.channel_id,
      createdBy: { userId: row.created_by_id ?? 0, name: row.created_by_name },
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      ...(row.ended_at ? { endedAt: row.ended_at } : {}),
      ...(row.end_reason === 'ended' || row.end_reason === 'expired' ? { endReason: row.end_reason } : {}),
      members: members.map(({ userId, name }) => ({ userId, name })),
    };
  }

  /** Selects the channel for the user and tells its sockets. */
  async function switchTo(
    userId: number,
    channel: { id: number; name: string | null } | null,
    reason: SelectionReason,
    by: Person,
    regroupId?: number,
  ): Promise<void> {
    if (channel) await store.select(userId, channel.id, reason, by, new Date(now()));
    events.emit('selectedChannelChanged', {
      userId,
      change: {
        channelId: channel?.id ?? null,
        channelName: channel?.name ?? null,
        reason,
        by,
        ...(regroupId !== undefined ? { regroupId } : {}),
      },
    });
  }

  /** The users the caller may regroup: anyone for an administrator, else members of the channels it dispatches. */
  async function requireRegroupable(auth: Reader, people: Person[]): Promise<void> {
    const where = await access.channelsWhere(auth, 'channel.dispatch');
    if (where === undefined) return;
    const within = await store.within(
      people.map((person) => person.userId),
      where,
    );
    const outside = people.find((person) => person.userId !== auth.userId && !within.has(person.userId));
    if (outside) throw new HttpError(403, 'regroup_user_not_allowed', { name: outside.name });
  }

  /** Ends it once (an end and an expiry at once, two instances: one of them), and brings its members back. */
  async function finish(row: RegroupRow, reason: 'ended' | 'expired', by: Person | null): Promise<Regroup | undefined> {
    return deps.transaction(async () => {
      const ended = await store.finish(row.id, reason, by, new Date(now()));
      if (!ended) return undefined;
      const members = await store.members(row.id);
      const onIt = await store.stillOn(row.channel_id);
      const regroup = await toRegroup(ended);
      const switcher = by ?? { userId: row.created_by_id ?? 0, name: row.created_by_name };
      const memberIds = await store.retireChannel(row.channel_id, row.id);
      for (const member of members) {
        const previous = onIt.has(member.userId)
          ? member.previousChannelId !== null && (await store.isMember(member.userId, member.previousChannelId))
            ? { id: member.previousChannelId, name: await store.channelName(member.previousChannelId) }
            : await store.firstChannelOf(member.userId, row.channel_id)
          : undefined;
        // Told first (issue 70): its pages let the channel go as a regroup's end, not as a right taken away.
        events.emit('regroupEnded', {
          userId: member.userId,
          ended: {
            regroupId: row.id,
            name: row.name,
            channelId: row.channel_id,
            reason,
            backTo: previous ? { channelId: previous.id, channelName: previous.name ?? '' } : null,
          },
        });
        if (onIt.has(member.userId)) await switchTo(member.userId, previous ?? null, 'regroup_end', switcher, row.id);
      }
      if (reason === 'expired')
        await deps.audit.write({
          actorId: null,
          actorName: 'server',
          action: 'regroup.expire',
          targetType: 'channel',
          targetId: row.channel_id,
          targetName: row.name,
          changes: { regroupId: { before: null, after: row.id }, expiresAt: { before: null, after: row.expires_at } },
          address: null,
          requestId: null,
        });
      events.emit('membershipChanged', { userIds: memberIds });
      events.emit('regroupsChanged', { regroupId: row.id, channelId: row.channel_id, userIds: memberIds });
      return regroup;
    });
  }

  const api = {
    async create(auth: Reader, body: CreateRegroupBody): Promise<Regroup> {
      for (const channelId of body.channelIds ?? []) {
        const { channel } = await access.require(auth, channelId, 'channel.dispatch');
        if (channel.hidden) throw notFound('channel_not_found');
      }
      const chosen = await store.people(body.userIds);
      const missing = body.userIds.find((id) => !chosen.some((person) => person.userId === id));
      // An unknown user is, for a dispatcher, one outside its channels.
      if (missing !== undefined) {
        if (may(auth, null, 'channel.dispatch')) throw notFound('user_not_found');
        throw new HttpError(403, 'regroup_user_not_allowed', { name: `#${missing}` });
      }
      await requireRegroupable(auth, chosen);
      if (await channels.conflicting(body.name)) throw conflict('channel_name_taken');
      const creator = await personOf(auth.userId);
      const fromChannels = await store.membersOf(body.channelIds ?? []);
      const regrouped = [...new Set([...chosen.map((person) => person.userId), ...fromChannels])].filter(
        (id) => id !== auth.userId,
      );
      const memberIds = [auth.userId, ...regrouped];
      const at = new Date(now());
      const created = await deps.transaction(async () => {
        // Counted in the transaction that adds one: two creations at once do not both pass the last place.
        if ((await store.openCountOf(auth.userId)) >= REGROUP_OPEN_MAX)
          throw new HttpError(429, 'regroup_limit', { max: REGROUP_OPEN_MAX });
        let channelId: number;
        try {
          channelId = await store.createChannel(body.name, auth.userId, memberIds, at);
        } catch (error) {
          if (isUniqueViolation(error)) throw conflict('channel_name_taken');
          throw error;
        }
        const before = await store.selections(regrouped);
        const row = await store.insert(
          {
            name: body.name,
            channel_id: channelId,
            created_by_id: creator.userId,
            created_by_name: creator.name,
            created_at: at.toISOString(),
            expires_at: new Date(at.getTime() + body.minutes * 60_000).toISOString(),
          },
          memberIds.map((userId) => ({ userId, previousChannelId: before.get(userId)?.channel_id ?? null })),
        );
        for (const userId of regrouped)
          await switchTo(userId, { id: channelId, name: body.name }, 'regroup', creator, row.id);
        events.emit('membershipChanged', { userIds: memberIds });
        events.emit('regroupsChanged', { regroupId: row.id, channelId, userIds: [auth.userId] });
        return row;
      });
      return toRegroup(created);
    },

    /** endRegroup: those who dispatch the regroup's channel: an administrator, or its creator (issue 69). */
    async end(auth: Reader, regroupId: number): Promise<Regroup> {
      const row = await store.byId(regroupId);
      if (!row) throw notFound('regroup_not_found');
      if (row.ended_at) throw conflict('regroup_already_ended');
      if (!(await access.may(auth, row.channel_id, 'channel.dispatch'))) throw notFound('regroup_not_found');
      const ended = await finish(row, 'ended', await personOf(auth.userId));
      if (!ended) throw conflict('regroup_already_ended');
      return ended;
    },

    /** The open regroups the caller may end. */
    async list(auth: Reader): Promise<Regroup[]> {
      const where = await access.channelsWhere(auth, 'channel.dispatch');
      const rows = await store.open(where);
      return Promise.all(rows.map(toRegroup));
    },

    /** Ends the regroups whose minutes ran out (the sweep); how many it ended here. */
    async expireDue(): Promise<number> {
      let ended = 0;
      for (const row of await store.due(new Date(now()))) if (await finish(row, 'expired', null)) ended += 1;
      return ended;
    },

    /** In how many ms the next open regroup runs out (0 when overdue); undefined when none is open. */
    async nextExpiryIn(): Promise<number | undefined> {
      const at = await store.nextExpiry();
      return at === undefined ? undefined : Math.max(0, new Date(at).getTime() - now());
    },

    /**
     * selectChannelFor: an administrator, or a dispatcher of the channel for one of its members; down the ranks
     * only (issue 69: never a user whose role is equal to or above the caller's; an administrator anyone but
     * himself, who selects his own channel with selectMyChannel).
     */
    async selectFor(auth: Reader, userId: number, channelId: number) {
      const { channel } = await access.require(auth, channelId, 'channel.dispatch');
      if (channel.hidden) throw notFound('channel_not_found');
      if (userId === auth.userId) throw invalidInput('userId: one selects one’s own channel with selectMyChannel');
      const [user] = await store.people([userId]);
      if (!(user && (await store.isMember(userId, channelId)))) {
        // A dispatcher learns nothing of a user outside its channel; an administrator is told what is wrong.
        if (!may(auth, null, 'channel.dispatch')) throw forbidden('not_allowed');
        if (!user) throw notFound('user_not_found');
        throw new HttpError(400, 'select_not_member', { name: user.name });
      }
      if (!mayActOn(auth, user.role)) throw new HttpError(403, 'select_rank_not_allowed', { name: user.name });
      await switchTo(userId, { id: channel.id, name: channel.name }, 'dispatcher', await personOf(auth.userId));
      return { user, channel };
    },

    /** The member's own choice on /talk (a channel it may read). */
    async selectMine(auth: Reader, channelId: number): Promise<Selection> {
      const { channel } = await access.require(auth, channelId, 'channel.read');
      if (channel.hidden) throw notFound('channel_not_found');
      return toSelection(await store.select(auth.userId, channelId, 'self', null, new Date(now())), channel.name);
    },

    async mine(auth: Reader): Promise<Selection | null> {
      const row = (await store.selections([auth.userId])).get(auth.userId);
      if (!row || !(await access.may(auth, row.channel_id, 'channel.read'))) return null;
      return toSelection(row, (await store.channelName(row.channel_id)) ?? '');
    },
  };
  /** A regroup's minutes running out, on whichever instance looks first (process/deadline-sweep.ts). */
  const deadlines: Deadlines = {
    what: 'ending the regroups whose time ran out',
    takeDue: api.expireDue,
    nextIn: api.nextExpiryIn,
    // What ran out while no instance was up ends now; each end brings its members back.
    takeAtStart: true,
  };
  return { ...api, deadlines };
}

export type Regroups = ReturnType<typeof regroups>;
