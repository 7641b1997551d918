/**
 * Keeps what every open socket is in true to its user's rights (issue 35): a change of a user's role or map
 * access, of its memberships (or a membership's canTalk), or of a channel takes effect on its open sockets at
 * once, on every instance. Each affected socket's rights are read again and applied with `may(...)`:
 * - its role and map access (what the socket's own checks read) and the administrators' room (every channel's
 *   positions, alerts and activities);
 * - its channels: one it may no longer listen to is left (the others get user_exit; its floor and talk burst
 *   end), one it may no longer talk in takes back a floor it holds, its map room follows `channel.map`, and a
 *   renamed channel's room key is followed; a private call's room is kept while its call is answered (no
 *   membership gives it);
 * - the channels it watches from outside (watch_channels) it may no longer read, and a dispatcher's supervisor
 *   rooms (supervision.ts);
 * - the live videos it watches (issue 69): one it may no longer watch lets it go (video/live.ts `recheckViewer`);
 * and the socket is told (`rights_changed`; `error` for each room left, as the spec's clients know it).
 * The domain events that change rights come here; with the Redis adapter the other instances are told to
 * check theirs (serverSideEmit). Every `recheckMs` each instance checks all its sockets anyway, sessions
 * included: what another process wrote without Redis (`npm run admin`) is caught then.
 */
import { type ChannelStanding, may, type RightsChange } from '@talkgroup/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionStore } from '../auth/sessions.ts';
import type { PrivateCalls } from '../calls/private-calls.ts';
import { type MembershipRights, type MembershipStore, standingOf } from '../channels/membership.ts';
import type { ChannelStore, ChannelSummary } from '../channels/store.ts';
import type { EventBus } from '../events.ts';
import { ADMINS_ROOM, lobbyChannelOf, mapRoom } from '../sockets/room-names.ts';
import { endSocketSession } from '../sockets/sessions.ts';
import type { UserStore } from '../users/store.ts';
import { talkerOf } from './concerns/floor.ts';
import { followRename, leaveChannel } from './concerns/rooms.ts';
import type { LocalSocket, SocketScope } from './context.ts';
import type { Io, SocketData, TalkSocket } from './io.ts';
import type { MediaPlanes } from './media/plane.ts';
import { participationIn } from './participations.ts';
import { placeSupervision, supervisorRoomsOf } from './supervision.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface RoomGuardServices {
  channels: ChannelStore;
  events: EventBus;
  memberships: MembershipStore;
  privateCalls: PrivateCalls;
  sessions: SessionStore;
  users: UserStore;
}

/** The users whose sockets a pass checks: some, or every socket of this instance. */
type Affected = Set<number> | 'all';

/** What one pass read, once for all the sockets it checks. */
interface Reads {
  accounts: Map<number, { role: SocketData['role']; mapRight: boolean; talkPriority: number }>;
  /** user id -> its memberships (channel id -> their rights). */
  memberships: Map<number, Map<number, MembershipRights>>;
  /** The channels the sockets were in when the pass began (those that still exist). */
  channels: Map<number, ChannelSummary>;
  asked: Set<number>;
  liveSessions: Set<number>;
}

const quoted = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

export function roomGuard(
  io: Io,
  deps: {
    services: RoomGuardServices;
    log: FastifyBaseLogger;
    local: Map<string, LocalSocket>;
    media: MediaPlanes;
    shared: boolean;
    recheckMs: number;
  },
) {
  const { services, log, local } = deps;
  let pending: Affected | undefined;
  /** Channels changed: those in use here follow their media plane too. */
  let pendingFollow = false;
  let running = false;

  /** Applies the reads to one socket, in its queue (after a join that was under way: it is checked too). */
  async function apply(socket: TalkSocket, scope: SocketScope, reads: Reads): Promise<void> {
    if (socket.disconnected) return;
    const { data } = socket;
    // Its session ended elsewhere (another process, a lost event): the socket ends with it.
    if (!reads.liveSessions.has(data.sessionId)) return endSocketSession(socket, 'revoked');
    const account = reads.accounts.get(data.userId);
    // A deleted account's sessions are gone with it (above).
    if (!account) return;
    const before = { role: data.role, mapRight: data.mapRight };
    data.role = account.role;
    data.mapRight = account.mapRight;
    data.talkPriority = account.talkPriority;
    const own = reads.memberships.get(data.userId) ?? new Map<number, MembershipRights>();
    const standing = (channelId: number): ChannelStanding => standingOf(own.get(channelId));

    const changes = new Set<RightsChange>();
    const parts: string[] = [];
    if (before.role !== data.role) {
      changes.add('role');
      parts.push(`your role is now ${data.role}`);
    }
    const seesMaps = may(data, { member: true }, 'channel.map');
    if (may(before, { member: true }, 'channel.map') !== seesMaps) {
      changes.add('map');
      parts.push(seesMaps ? "you may see your channels' map" : "you may no longer see your channels' map");
    }

    if (may(data, null, 'channel.alerts')) await socket.join(ADMINS_ROOM);
    else await socket.leave(ADMINS_ROOM);
    const unfollowed = await placeSupervision(socket, supervisorRoomsOf(data, own));

    const left: ChannelSummary[] = [];
    const listenOnly: string[] = [];
    const mayTalkNow: string[] = [];
    for (const at of [...data.participations]) {
      // A private call's room is its call's, not a membership's: kept while the call is answered.
      if (at.hidden) {
        if (!(await services.privateCalls.mayEnter(data.userId, at.channelId))) {
          const still = participationIn(data, at.channelId);
          if (still) await leaveChannel(socket, scope, still, 'evicted');
        }
        continue;
      }
      // A channel joined since the pass began is read now.
      const channel = reads.asked.has(at.channelId)
        ? reads.channels.get(at.channelId)
        : await services.channels.byId(at.channelId);
      const here = standing(at.channelId);
      if (!channel || !may(data, here, 'channel.listen')) {
        const still = data.participations.find((p) => p.channelId === at.channelId);
        if (!still) continue;
        await leaveChannel(socket, scope, still, 'evicted');
        socket.emit('error', {
          message: !channel
            ? 'This channel was deleted: you left its room.'
            : channel.retired
              ? 'This regroup ended: you left its channel.'
              : `You are no longer a member of the channel "${channel.name}": you left its room.`,
        });
        // A deleted channel says so itself (onChannelDeleted), an ended regroup's too (regroup_ended, issue 70):
        // only a right taken away is a change of rights.
        if (channel && !channel.retired) left.push(channel);
        continue;
      }
      // A membership that now gives a member's rights only (or its role's again): what the socket's own checks read.
      at.memberRightsOnly = here.memberRightsOnly === true;
      const mayTalk = may(data, here, 'channel.talk');
      if (at.mayTalk !== mayTalk) {
        at.mayTalk = mayTalk;
        (mayTalk ? mayTalkNow : listenOnly).push(channel.name);
        // Made listen-only: a floor it holds goes back (floor_revoked `revoked`), its next press is refused.
        if (!mayTalk && (await scope.floor.free(socket.id, at.room, at.channelId, 'revoked')))
          await scope.talk.endTalkOnLeave(talkerOf(socket), at);
        // ...and it leaves the floor queue (issue 59).
        if (!mayTalk) await scope.floor.queue.cancel(socket.id, at.room, at.channelId);
        // ...and its live video there ends (issue 61: a listen-only membership does not share).
        if (!mayTalk) await scope.videos.leftChannel(socket.id, at.channelId, true);
      }
      const seesMap = may(data, here, 'channel.map');
      if (at.seesMap !== seesMap) {
        at.seesMap = seesMap;
        changes.add('map');
        if (seesMap) await socket.join(mapRoom(at.room));
        else await socket.leave(mapRoom(at.room));
      }
      if (channel.rtcSession !== at.room) await followRename(socket, channel);
    }

    // Live videos it watches and may no longer watch (issue 69): let go at once, told `video_ended` with `no_right`.
    await scope.videos.recheckViewer({
      socketId: socket.id,
      userId: data.userId,
      role: data.role,
      mapRight: data.mapRight,
    });

    for (const room of [...socket.rooms]) {
      const channelId = lobbyChannelOf(room);
      if (channelId === undefined || may(data, standing(channelId), 'channel.read')) continue;
      await socket.leave(room);
      unfollowed.push(channelId);
    }

    // Channels it watched or supervised and may no longer follow (a deleted one is no change of rights).
    const removedFrom = new Map<number, ChannelSummary>();
    if (unfollowed.length > 0)
      for (const [id, channel] of await services.channels.byIds(unfollowed))
        if (!channel.retired) removedFrom.set(id, channel);
    if (left.length > 0) parts.push(`you are no longer in ${quoted(left.map((c) => c.name))}`);
    else if (removedFrom.size > 0)
      parts.push(`you no longer follow ${quoted([...removedFrom.values()].map((c) => c.name))}`);
    if (left.length > 0 || removedFrom.size > 0) changes.add('channels');
    if (listenOnly.length > 0) parts.push(`you may only listen in ${quoted(listenOnly)}`);
    if (mayTalkNow.length > 0) parts.push(`you may talk in ${quoted(mayTalkNow)}`);
    if (listenOnly.length > 0 || mayTalkNow.length > 0) changes.add('talk');
    if (changes.size === 0) return;
    socket.emit('rights_changed', {
      role: data.role,
      mapRight: data.mapRight,
      changes: [...changes],
      left: left.map((channel) => channel.rtcSession),
      message: `Your rights changed: ${parts.join('; ')}.`,
    });
  }

  /** One pass: the rights of the affected sockets' users read in a few queries, then applied socket by socket. */
  async function recheck(affected: Affected, follow: boolean): Promise<void> {
    const entries = [...local.values()].filter(
      ({ socket }) => !socket.disconnected && (affected === 'all' || affected.has(socket.data.userId)),
    );
    if (entries.length === 0) return;
    const userIds = entries.map(({ socket }) => socket.data.userId);
    const channelIds = entries.flatMap(({ socket }) => socket.data.participations.map((at) => at.channelId));
    const [accounts, memberships, channels, liveSessions] = await Promise.all([
      services.users.rightsOf(userIds),
      services.memberships.rightsOfUsers(userIds),
      services.channels.byIds(channelIds),
      services.sessions.liveIds(entries.map(({ socket }) => socket.data.sessionId)),
    ]);
    const reads: Reads = { accounts, memberships, channels, asked: new Set(channelIds), liveSessions };
    for (const { socket, scope } of entries) void scope.run('rights', () => apply(socket, scope, reads));
    // A channel's voice set to go another way (the media server, or peer to peer): the pages here switch.
    if (follow) for (const channel of channels.values()) await deps.media.follow(channel);
  }

  /** One pass at a time; what is asked meanwhile is gathered into the next one. */
  function request(affected: Affected, follow = false): void {
    if (affected !== 'all' && affected.size === 0) return;
    pending = pending === 'all' || affected === 'all' ? 'all' : new Set([...(pending ?? []), ...affected]);
    pendingFollow ||= follow;
    if (running) return;
    running = true;
    void (async () => {
      while (pending !== undefined) {
        const next = pending;
        const nextFollow = pendingFollow;
        pending = undefined;
        pendingFollow = false;
        await recheck(next, nextFollow).catch((error) =>
          log.error({ err: error }, 'could not re-check the rights of sockets'),
        );
      }
      running = false;
    })();
  }

  /**
   * Here, and on the other instances (the in-memory adapter has none to tell, and warns when asked to). `null`:
   * a channel changed, every socket in use is checked and channels follow their media plane.
   */
  function everywhere(userIds: number[] | null): void {
    request(userIds ? new Set(userIds) : 'all', userIds === null);
    if (deps.shared) io.serverSideEmit('revalidateRooms', userIds);
  }

  io.on('revalidateRooms', (userIds) =>
    Array.isArray(userIds) ? request(new Set(userIds.map(Number))) : request('all', true),
  );
  const offs = [
    services.events.on('rightsChanged', ({ userIds }) => everywhere(userIds)),
    services.events.on('membershipChanged', ({ userIds }) => everywhere(userIds)),
    // A channel renamed, deleted or switched to another media plane: the sockets in it, whoever they are.
    services.events.on('channelChanged', () => everywhere(null)),
    services.events.on('channelDeleted', () => everywhere(null)),
  ];
  const timer = setInterval(() => request('all'), deps.recheckMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      for (const off of offs) off();
    },
  };
}
