/**
 * From domain events to the client events of spec section 7: which event, to whom. Real time hands in a
 * target backed by Socket.IO rooms; a test can hand in a recorder.
 */
import type { DomainEvents, EventBus } from '../events.ts';
import type { EventArgs, EventName } from './io.ts';

export interface PushTarget {
  /** To every administrator's sockets. */
  toAdmins<E extends EventName>(event: E, ...args: EventArgs<E>): void;
  /** To every socket in a channel's room (by rtcSession). */
  toRoom<E extends EventName>(rtcSession: string, event: E, ...args: EventArgs<E>): void;
  /**
   * Once to each socket that is an administrator's, in one of these channel rooms (by rtcSession), or a
   * supervisor's of one of these channels (by id: a dispatcher's console, wherever it is), or one of these users'.
   */
  toAdminsAnd<E extends EventName>(
    where: { rooms?: string[]; supervisedChannels?: number[]; users?: number[] },
    event: E,
    ...args: EventArgs<E>
  ): void;
  /** To every socket of one user. */
  toUser<E extends EventName>(userId: number, event: E, ...args: EventArgs<E>): void;
  /** To every signed-in socket. */
  toEveryone<E extends EventName>(event: E, ...args: EventArgs<E>): void;
  /** Closes the sockets of the sessions that ended, saying why (`session_ended`) so that they do not come back. */
  endSessions(ended: DomainEvents['sessionsEnded']): void;
}

/** An alert's member, while its account exists. */
const memberOf = (alert: { userId: number | null }): number[] => (alert.userId !== null ? [alert.userId] : []);

/** Subscribes `target` to the bus; returns the function that unsubscribes it. */
export function subscribePushes(events: EventBus, target: PushTarget): () => void {
  /** Admins' lists change; the members whose channel list changed refresh theirs (getMyChannels). */
  const channelsChanged = (userIds: number[]) => {
    target.toAdmins('onChannelsChanged');
    for (const userId of new Set(userIds)) target.toUser(userId, 'onChannelsChanged');
  };
  const offs = [
    events.on('usersChanged', () => target.toAdmins('onUsersChanged')),
    events.on('userDeleted', ({ userId }) => target.toAdmins('onUserDeleted', { id: userId })),
    events.on('sessionsEnded', (ended) => target.endSessions(ended)),
    events.on('channelChanged', ({ userIds }) => channelsChanged(userIds)),
    events.on('membershipChanged', ({ userIds }) => channelsChanged(userIds)),
    events.on('channelDeleted', ({ channel, memberIds }) => {
      target.toAdmins('onChannelDeleted', { id: channel.id });
      target.toRoom(channel.rtcSession, 'onChannelDeleted', { id: channel.id });
      channelsChanged(memberIds);
    }),
    // The spec's clients also get it as messageResponse (legacy/client-kinds.ts).
    events.on('messageCreated', ({ channel, message }) => target.toRoom(channel.rtcSession, 'onSendMessage', message)),
    events.on('messageDeleted', ({ channel, messageId }) =>
      target.toRoom(channel.rtcSession, 'onMessageDeleted', { id: messageId, channelId: channel.id }),
    ),
    events.on('activityRecorded', ({ activity }) =>
      target.toAdminsAnd(
        { supervisedChannels: activity.channel?.id ? [activity.channel.id] : [] },
        'onActivity',
        activity,
      ),
    ),
    events.on('voiceMessageCreated', ({ channel, voiceMessage }) =>
      target.toRoom(channel.rtcSession, 'voiceMessage', voiceMessage),
    ),
    events.on('missedChanged', ({ userIds, channelIds, busy }) => {
      for (const userId of new Set(userIds))
        target.toUser(userId, 'missedTransmissionsChanged', { channelIds, ...(busy !== undefined ? { busy } : {}) });
    }),
    events.on('scanChanged', ({ userId, channelId, scan }) =>
      target.toUser(userId, 'scanListChanged', { channelId, scan }),
    ),
    events.on('voiceMessageDeleted', ({ channel, voiceMessageId }) =>
      target.toRoom(channel.rtcSession, 'voiceMessageDeleted', { id: voiceMessageId, channelId: channel.id }),
    ),
    // Issue 70: the member's own devices too, whichever page they show: its phone says what was done to it.
    events.on('emergencyRaised', ({ alert, rooms, channelIds }) =>
      target.toAdminsAnd({ rooms, supervisedChannels: channelIds, users: memberOf(alert) }, 'emergencyAlert', alert),
    ),
    events.on('emergencyAcknowledged', ({ alert, rooms, channelIds }) =>
      target.toAdminsAnd(
        { rooms, supervisedChannels: channelIds, users: memberOf(alert) },
        'emergencyAcknowledged',
        alert,
      ),
    ),
    events.on('emergencyOk', ({ alert, channelIds }) =>
      target.toAdminsAnd({ supervisedChannels: channelIds, users: memberOf(alert) }, 'emergencyOk', alert),
    ),
    // A fence without channel watches everyone: only administrators hear about it.
    events.on('geofenceCrossed', ({ alert }) =>
      target.toAdminsAnd(
        { supervisedChannels: alert.channelId !== null ? [alert.channelId] : [] },
        'geofenceAlert',
        alert,
      ),
    ),
    events.on('geofencesChanged', ({ channelId }) =>
      target.toAdminsAnd({ supervisedChannels: channelId !== null ? [channelId] : [] }, 'geofencesChanged', {
        channelId,
      }),
    ),
    events.on('patchesChanged', ({ channelIds }) =>
      target.toAdminsAnd({ supervisedChannels: channelIds }, 'patchesChanged', { channelIds }),
    ),
    // Each request to its member, and to those who may dispatch its channel (administrators, its dispatchers).
    events.on('dispatchCallsChanged', ({ requests }) => {
      for (const request of requests)
        target.toAdminsAnd(
          { supervisedChannels: [request.channelId], users: [request.requester.userId] },
          'dispatchCallsChanged',
          request,
        );
    }),
    // Issue 49: a member's status, to those who see it on a tile, a list or a map, and to its own devices.
    events.on('memberStatusChanged', ({ status, rooms = [], channelIds = [] }) =>
      target.toAdminsAnd(
        { rooms, supervisedChannels: channelIds, users: [status.userId] },
        'memberStatusChanged',
        status,
      ),
    ),
    events.on('statusesChanged', () => target.toEveryone('statusesChanged')),
    // Issue 59: a member's /talk follows a regroup, its end or a dispatcher's choice, on every device it has open.
    events.on('selectedChannelChanged', ({ userId, change }) =>
      target.toUser(userId, 'selected_channel_changed', change),
    ),
    events.on('regroupEnded', ({ userId, ended }) => target.toUser(userId, 'regroup_ended', ended)),
    events.on('regroupsChanged', ({ regroupId, channelId, userIds }) =>
      target.toAdminsAnd({ supervisedChannels: [channelId], users: userIds }, 'regroupsChanged', { regroupId }),
    ),
    events.on('aliasesChanged', () => target.toEveryone('aliases_changed')),
    // Issue 60: lone work's checks to the member's devices, its missed checks to those who take its alerts.
    events.on('loneWorkerCheck', ({ userId, check }) => target.toUser(userId, 'lone_worker_check', check)),
    events.on('loneWorkerMissed', ({ alert, channelIds }) =>
      target.toAdminsAnd({ supervisedChannels: channelIds }, 'loneWorkerAlert', alert),
    ),
    events.on('loneWorkerChanged', ({ userId, worker, channelIds }) =>
      target.toAdminsAnd({ supervisedChannels: channelIds }, 'loneWorkerChanged', { userId, worker }),
    ),
    // Both parties' pages (console or phone) follow the call; the callee's ring.
    // A call to a functional alias (issue 59) rings each of its holders, and each hears when it stops ringing.
    events.on('privateCallChanged', ({ call, also = [] }) => {
      const rung = call.alias?.ringing ?? [];
      for (const party of new Set([call.caller.userId, call.callee.userId, ...rung, ...also]))
        if (party !== null) target.toUser(party, 'privateCallUpdated', call);
      if (call.state === 'ringing' && call.callee.userId !== null && call.caller.userId !== null)
        for (const callee of new Set([call.callee.userId, ...rung]))
          target.toUser(callee, 'incomingCall', {
            callId: call.callId,
            room: call.room,
            from: { userId: call.caller.userId, name: call.caller.name },
            ...(call.request ? { requestId: call.request.requestId, note: call.request.note } : {}),
            ...(call.alias ? { alias: call.alias.name } : {}),
          });
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}
