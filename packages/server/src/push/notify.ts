/**
 * What is pushed, to whom (issue 34), from the domain events; each listener only queues (the sender works
 * beside the event), and a failed recipient look-up is logged, never thrown at the emitter.
 * - an SOS: to every member of the channels that hear of it (the sender's and the alert's) and to the roles
 *   that take alerts everywhere (administrators), its sender excluded; urgent;
 * - a private call ringing: to the callee, urgent, kept no longer than it rings, with the call's decline key (the
 *   notification's Decline needs no session token); missed or cancelled, the same tag again, so that the ringing
 *   notification becomes a missed call;
 * - a transmission: to the channel's members who are not in the channel now (no socket of theirs there),
 *   the talker and busy members excluded; one Topic per channel, so that the push service keeps only the latest;
 * - a geofence crossing: to the roles that receive fences' alerts everywhere, and in the fence's channel to
 *   its members whose role receives them there (dispatchers).
 * All but transmissions go in the sender's alert lane, ahead of transmissions.
 */
import {
  type Capability,
  type EmergencyReason,
  may,
  type PrivateCall,
  type PushKind,
  type PushPayload,
  ROLES,
  type ServerLanguage,
} from '@talkgroup/protocol';
import { type MembershipStore, rolesHoldingInChannels } from '../channels/membership.ts';
import type { Db } from '../db/schema.ts';
import type { EventBus } from '../events.ts';
import { pushText } from '../http/messages.ts';
import type { PushNotificationKey } from '../http/server-texts-push.ts';
import type { CallDeclineKeys } from './decline-keys.ts';
import type { PushOptions, PushSender } from './sender.ts';
import type { PushSubscriptionStore, StoredSubscription } from './store.ts';

/** How long an SOS or a geofence alert is worth delivering to a device that was away; a transmission's less. */
const ALERT_TTL_S = 3600;
const TRANSMISSION_TTL_S = 300;
const SOS_TITLES = {
  sos: 'sos_title',
  man_down: 'sos_title_man_down',
  lone_worker: 'sos_title_lone_worker',
} as const satisfies Record<EmergencyReason, PushNotificationKey>;

interface Message {
  kind: PushKind;
  title: [PushNotificationKey, Record<string, string>];
  body: [PushNotificationKey, Record<string, string>];
  url: string;
  tag: string;
  callId?: number;
  declineKey?: string;
  /** A ringing call that answers the callee's dispatch request (issue 58). */
  requestId?: number;
}

export function pushNotifications(deps: {
  db: Db;
  events: EventBus;
  memberships: MembershipStore;
  store: PushSubscriptionStore;
  sender: PushSender;
  declineKeys: CallDeclineKeys;
  ringMs: number;
  onError: (error: unknown, what: string) => void;
}) {
  const { db, events, memberships, store, sender } = deps;

  /** Users whose role holds the capability in every channel (administrators). */
  const everywhere = async (capability: Capability): Promise<number[]> => {
    const roles = ROLES.filter((role) => may({ role }, null, capability));
    if (roles.length === 0) return [];
    const rows = await db.selectFrom('users').select('id').where('role', 'in', roles).execute();
    return rows.map((row) => row.id);
  };

  /**
   * Members of the channel whose role holds the capability there (dispatchers), by a membership that gives it (not
   * one that gives a member's rights only: an area's, a regroup's, issue 69).
   */
  const membersHolding = async (channelId: number, capability: Capability): Promise<number[]> => {
    const { inMembership, inMemberRightsOnly } = rolesHoldingInChannels(capability);
    if (inMembership.length === 0) return [];
    const rows = await db
      .selectFrom('channel_members')
      .innerJoin('users', 'users.id', 'channel_members.user_id')
      .select('users.id')
      .where('channel_members.channel_id', '=', channelId)
      .where('users.role', 'in', inMembership)
      .where((eb) =>
        eb.or([
          eb('channel_members.member_rights_only', '=', 0),
          ...(inMemberRightsOnly.length > 0 ? [eb('users.role', 'in', inMemberRightsOnly)] : []),
        ]),
      )
      .execute();
    return rows.map((row) => row.id);
  };

  /** The message's payload in each subscription's language, written once per language (an SOS may reach thousands). */
  const payloadFor = (message: Message) => {
    const written = new Map<ServerLanguage, string>();
    return (subscription: StoredSubscription) => {
      const language: ServerLanguage = subscription.language;
      let text = written.get(language);
      if (text === undefined) {
        const payload: PushPayload = {
          kind: message.kind,
          title: pushText(message.title[0], language, message.title[1]),
          body: pushText(message.body[0], language, message.body[1]),
          url: message.url,
          tag: message.tag,
          ...(message.callId !== undefined ? { callId: message.callId } : {}),
          ...(message.declineKey !== undefined ? { declineKey: message.declineKey } : {}),
          ...(message.requestId !== undefined ? { requestId: message.requestId } : {}),
        };
        text = JSON.stringify(payload);
        written.set(language, text);
      }
      return text;
    };
  };

  const push = async (userIds: Iterable<number>, message: Message, options: PushOptions) => {
    const ids = [...new Set(userIds)];
    if (ids.length === 0) return;
    sender.enqueue(await store.ofUsers(ids), payloadFor(message), options);
  };

  const later = (what: string, work: () => Promise<void>) => {
    work().catch((error) => deps.onError(error, what));
  };

  /** A ringing call's push to one phone it rings, with that one's decline key. */
  const ringPush = (call: PrivateCall, holder: number) =>
    push(
      [holder],
      {
        kind: 'call',
        title: ['call_title', { name: call.caller.name }],
        // A dispatcher's answer to the member's request says so, with the member's own note (issue 58).
        body: !call.request
          ? ['call_body', {}]
          : call.request.note
            ? ['call_body_request_note', { note: call.request.note }]
            : ['call_body_request', {}],
        url: `/talk?call=${call.callId}`,
        tag: `call-${call.callId}`,
        callId: call.callId,
        declineKey: deps.declineKeys.of(call.callId, holder),
        ...(call.request ? { requestId: call.request.requestId } : {}),
      },
      { urgency: 'high', ttl: Math.max(1, Math.ceil(deps.ringMs / 1000)), lane: 'alert' },
    );

  const offs = [
    events.on('emergencyRaised', ({ alert, channelIds }) =>
      later('push an SOS', async () => {
        const to = new Set(await everywhere('channel.alerts'));
        for (const channelId of channelIds) for (const id of await memberships.memberIds(channelId)) to.add(id);
        if (alert.userId !== null) to.delete(alert.userId);
        const name = alert.display_name;
        await push(
          to,
          {
            kind: 'sos',
            // Issue 60: the title says why (SOS, man down, no response).
            title: [SOS_TITLES[alert.reason], { name }],
            body: alert.channelName
              ? ['sos_body', { name, channel: alert.channelName }]
              : ['sos_body_nowhere', { name }],
            url: alert.channelId !== null ? `/talk/${alert.channelId}` : '/talk',
            tag: `sos-${alert.id}`,
          },
          { urgency: 'high', ttl: ALERT_TTL_S, lane: 'alert' },
        );
      }),
    ),
    // Issue 60: a lone worker's check (or its reminder) to its own devices; its missed checks to its dispatchers.
    events.on('loneWorkerCheck', ({ userId, check }) =>
      later('push a lone-worker check', () =>
        push(
          [userId],
          {
            kind: 'lone_worker',
            title: ['lone_worker_check_title', {}],
            body: [check.reminder ? 'lone_worker_reminder_body' : 'lone_worker_check_body', {}],
            url: '/talk',
            tag: `lone-worker-${userId}`,
          },
          { urgency: 'high', ttl: 600, lane: 'alert' },
        ),
      ),
    ),
    events.on('loneWorkerMissed', ({ alert, channelIds }) =>
      later('push a lone-worker alert', async () => {
        const to = new Set(await everywhere('channel.alerts'));
        for (const channelId of channelIds)
          for (const id of await membersHolding(channelId, 'channel.alerts')) to.add(id);
        to.delete(alert.userId);
        await push(
          to,
          {
            kind: 'lone_worker',
            title: ['sos_title_lone_worker', { name: alert.name }],
            body: ['lone_worker_alert_body', { name: alert.name }],
            url: '/dispatch',
            tag: `lone-worker-alert-${alert.userId}`,
          },
          { urgency: 'high', ttl: ALERT_TTL_S, lane: 'alert' },
        );
      }),
    ),
    events.on('privateCallChanged', ({ call, also = [] }) => {
      if (call.callee.userId === null) return;
      const callee = call.callee.userId;
      // A call to an alias (issue 59) rings each of its holders' phones, the callee among them.
      const rung = [...new Set([callee, ...(call.alias?.ringing ?? [])])];
      // Nobody answered, or the caller gave up: the ringing notification (same tag) says so instead of ringing on.
      if (call.state === 'missed' || call.state === 'cancelled') {
        later('push a missed call', () =>
          push(
            rung,
            {
              kind: 'missed_call',
              title: ['missed_call_title', {}],
              body: ['missed_call_body', { name: call.caller.name }],
              url: '/talk',
              tag: `call-${call.callId}`,
              callId: call.callId,
            },
            { urgency: 'normal', ttl: ALERT_TTL_S, lane: 'alert' },
          ),
        );
        return;
      }
      // Another holder of the alias answered: the others' ringing notifications (same tag) say who took it.
      if (call.state === 'active' && call.alias) {
        const others = rung.filter((id) => id !== callee);
        if (others.length > 0)
          later('push an alias call taken', () =>
            push(
              others,
              {
                kind: 'missed_call',
                title: ['missed_call_title', {}],
                body: ['alias_call_taken_body', { name: call.callee.name, alias: call.alias?.name ?? '' }],
                url: '/talk',
                tag: `call-${call.callId}`,
                callId: call.callId,
              },
              { urgency: 'normal', ttl: ALERT_TTL_S, lane: 'alert' },
            ),
          );
        return;
      }
      // A holder who left the ring (`also`) changes nothing for the others: they were rung when it began.
      if (call.state !== 'ringing' || also.length > 0) return;
      for (const holder of rung) later('push a private call', () => ringPush(call, holder));
    }),
    // A request waited DISPATCH_REMIND_SECONDS: its channel's dispatchers who are not on the console hear of it.
    events.on('dispatchReminded', ({ requests, onConsole }) =>
      later('push a dispatch reminder', async () => {
        const away = new Set(onConsole);
        const everywhereIds = await everywhere('channel.dispatch');
        for (const request of requests) {
          const to = new Set([...everywhereIds, ...(await membersHolding(request.channelId, 'channel.dispatch'))]);
          for (const id of [...away, request.requester.userId]) to.delete(id);
          const name = request.requester.name;
          await push(
            to,
            {
              kind: 'dispatch',
              title: ['dispatch_remind_title', { name }],
              body: [
                'dispatch_remind_body',
                { minutes: String(Math.max(1, Math.floor(request.waitedMs / 60_000))), channel: request.channelName },
              ],
              url: '/dispatch',
              tag: `dispatch-${request.requestId}`,
            },
            { urgency: 'high', ttl: ALERT_TTL_S, lane: 'alert' },
          );
        }
      }),
    ),
    events.on('transmissionStarted', ({ channel, userId, name }) => {
      if (channel.hidden) return;
      later('push a transmission', async () => {
        const members = await memberships.memberIds(channel.id);
        members.delete(userId);
        if (members.size === 0) return;
        const present = await db
          .selectFrom('user_sockets')
          .select('user_id')
          .distinct()
          .where('channel_id', '=', channel.id)
          .execute();
        for (const row of present) members.delete(row.user_id);
        // A busy member's transmissions go to its missed list, quietly (Zello's busy: no notification either).
        if (members.size > 0) {
          const busy = await db
            .selectFrom('users')
            .select('id')
            .where('id', 'in', [...members])
            .where('busy', '=', 1)
            .execute();
          for (const row of busy) members.delete(row.id);
        }
        await push(
          members,
          {
            kind: 'transmission',
            title: ['transmission_title', { channel: channel.name }],
            body: ['transmission_body', { name, channel: channel.name }],
            url: `/talk/${channel.id}`,
            tag: `channel-${channel.id}`,
          },
          { urgency: 'normal', ttl: TRANSMISSION_TTL_S, topic: `channel-${channel.id}`, lane: 'transmission' },
        );
      });
    }),
    events.on('geofenceCrossed', ({ alert }) =>
      later('push a geofence alert', async () => {
        const to = new Set(await everywhere('channel.geofences'));
        if (alert.channelId !== null)
          for (const id of await membersHolding(alert.channelId, 'channel.geofences')) to.add(id);
        to.delete(alert.userId);
        const params = { name: alert.userName, fence: alert.name };
        await push(
          to,
          {
            kind: 'geofence',
            title: ['geofence_title', params],
            body: [alert.kind === 'enter' ? 'geofence_enter' : 'geofence_exit', params],
            url: '/dispatch',
            tag: `geofence-${alert.geofenceId}-${alert.userId}`,
          },
          { urgency: 'normal', ttl: ALERT_TTL_S, lane: 'alert' },
        );
      }),
    ),
  ];
  return () => {
    for (const off of offs) off();
  };
}
