/**
 * The domain events: what happened, said once by the code that made it happen (routes, services), heard by
 * whoever cares (real time pushes it to sockets and re-checks the channel rooms). Built with the services,
 * so nothing is patched in afterwards; with no listener an event simply goes nowhere (app.inject tests).
 */
import type {
  Activity,
  DispatchRequest,
  EmergencyAlert,
  GeofenceAlert,
  LoneWorker,
  LoneWorkerAlert,
  LoneWorkerCheck,
  MemberStatus,
  Message,
  PrivateCall,
  RegroupEnded,
  SafetySettings,
  SelectedChannelChanged,
  SessionEndReason,
  VoiceMessage,
} from '@talkgroup/protocol';

/** What real time needs to know of a channel to reach its room. */
export interface ChannelRef {
  id: number;
  rtcSession: string;
}

export interface DomainEvents {
  /** A user was created, updated or imported: administrators' lists change. */
  usersChanged: Record<string, never>;
  userDeleted: { userId: number };
  /**
   * Users' roles or map access changed (updateUserData, an import): their open sockets follow at once (rooms
   * left or joined, realtime/room-guard.ts), on every instance.
   */
  rightsChanged: { userIds: number[] };
  /**
   * Sessions of this user ended (logout, revoked tokens, a new password, a deleted account): their sockets
   * close at once. Only `sessionId` when given; all but `exceptSessionId` when given; else every one.
   */
  sessionsEnded: { userId: number; reason: SessionEndReason; sessionId?: number; exceptSessionId?: number };
  /** A channel was created or renamed; `userIds` are the members whose own channel list shows it. */
  channelChanged: { userIds: number[] };
  /**
   * Memberships (or a membership's canTalk) changed; `userIds` are the users whose channel lists or rights
   * changed (none known: admins only). Their open sockets follow at once (realtime/room-guard.ts).
   */
  membershipChanged: { userIds: number[] };
  channelDeleted: { channel: ChannelRef; memberIds: number[] };
  messageCreated: { channel: ChannelRef; message: Message };
  messageDeleted: { channel: ChannelRef; messageId: number };
  activityRecorded: { activity: Activity };
  /** A transmission was recorded into the channel's voice history. */
  voiceMessageCreated: { channel: ChannelRef; voiceMessage: VoiceMessage };
  voiceMessageDeleted: { channel: ChannelRef; voiceMessageId: number };
  /**
   * An SOS: `rooms` and `channelIds` are the sender's channels (and the alert's channel), by room key and by
   * id; `channel`, where the sender gets the floor with top priority when `openMic` (issue 69: always for its own
   * SOS; for one raised for it by someone else, only with the safety setting `emergencyOpenMic: 'any_alert'`, and
   * never where it only listens).
   */
  emergencyRaised: {
    alert: EmergencyAlert;
    rooms: string[];
    channelIds: number[];
    channel?: ChannelRef;
    openMic: boolean;
  };
  emergencyAcknowledged: { alert: EmergencyAlert; rooms: string[]; channelIds: number[] };
  /** Issue 70: the member said "Je vais bien" after its alert: those who take alerts of `channelIds` hear of it. */
  emergencyOk: { alert: EmergencyAlert; channelIds: number[] };
  /** A member crossed a geofence's edge (issue 28): the alert's channelId is the fence's (null: everyone's). */
  geofenceCrossed: { alert: GeofenceAlert };
  /** A fence of this channel (null: one that watches everyone) was created, changed or deleted. */
  geofencesChanged: { channelId: number | null };
  /** Patches that join these channels were made or undone (issue 27). */
  patchesChanged: { channelIds: number[] };
  /**
   * Someone took a channel's floor (a transmission began; `name`: the talker's). Web Push tells the channel's
   * members who are not in it now (issue 34).
   */
  transmissionStarted: {
    channel: { id: number; name: string; hidden: boolean };
    userId: number;
    name: string;
    /** The floor an SOS opened (issue 69: no answer to a lone worker's check, only its own press is). */
    emergency?: boolean;
  };
  /**
   * These users' missed transmissions changed in these channels (issue 34): one was kept that they did not hear,
   * or they played some; `busy`: their status changed.
   */
  missedChanged: { userIds: number[]; channelIds: number[]; busy?: boolean };
  /** A member took one of its channels out of the scan or put it back (issue 34): all its devices follow. */
  scanChanged: { userId: number; channelId: number; scan: boolean };
  /** A private call rang, was answered, or is over (issue 27): both parties hear of it. */
  privateCallChanged: {
    call: PrivateCall;
    /** Users to tell besides its parties and the holders it rings: a holder who just left the ring (issue 59). */
    also?: number[];
  };
  /**
   * Dispatch requests changed (issue 49): each goes to its member and to those who may dispatch its channel.
   * `reminded`: these were just recalled (the dispatchers not on the dispatch console get a Web Push).
   */
  dispatchCallsChanged: { requests: DispatchRequest[]; reminded?: boolean };
  /**
   * Waiting requests were just recalled, and these users have the dispatch console open (on any instance): the
   * other dispatchers of the requests' channels get a Web Push (real time says who is on the console).
   */
  dispatchReminded: { requests: DispatchRequest[]; onConsole: number[] };
  /**
   * A member's status changed (issue 49); `rooms` and `channelIds` are its channels, by room key and by id (their
   * rooms and supervisors hear of it).
   */
  memberStatusChanged: { status: MemberStatus; rooms?: string[]; channelIds?: number[] };
  /** The organisation's list of statuses changed. */
  statusesChanged: Record<string, never>;
  /** Functional aliases or their holders changed (issue 59): every page reads them again. */
  aliasesChanged: Record<string, never>;
  /**
   * A SIP gateway was changed, given a new secret or deleted, or one of its calls is to be hung up (`callId`;
   * issue 51): the SIP server looks again at the calls it holds (it also polls the store's toEnd()).
   */
  gatewaysChanged: { gatewayId: number; callId?: string };
  /** A user came online (its first socket, on any instance; its presence written): the people connected grew. */
  userCameOnline: { userId: number };
  /** Issue 59: a member's /talk is switched to another channel (a regroup, its end, a dispatcher): its sockets follow. */
  selectedChannelChanged: { userId: number; change: SelectedChannelChanged };
  /** Issue 59: a regroup was made or ended: administrators, and the dispatchers of its channel (and `userIds`). */
  regroupsChanged: { regroupId: number; channelId: number; userIds: number[] };
  /** Issue 70: a regroup ended: told to each of its members (`userId`) before its /talk is switched back. */
  regroupEnded: { userId: number; ended: RegroupEnded };
  /** Issue 60: a lone worker is asked (or reminded): its sockets, and a Web Push to its devices. */
  loneWorkerCheck: { userId: number; check: LoneWorkerCheck };
  /** Issue 60: a lone worker answered neither check: administrators and the dispatchers of `channelIds`. */
  loneWorkerMissed: { alert: LoneWorkerAlert; channelIds: number[] };
  /**
   * Issue 70: a member's lone work changed (started, asked, answered, alerted, escalated, stopped; `worker` null:
   * off): administrators and the dispatchers of `channelIds`, the member's channels, see it at once.
   */
  loneWorkerChanged: { userId: number; worker: LoneWorker | null; channelIds: number[] };
  /**
   * Issue 69: an administrator changed the safety settings (committed): live ambient listenings follow at once
   * (`ambientListening` 'off' ends them, 'announced' announces the discreet ones).
   */
  safetySettingsChanged: { before: SafetySettings; after: SafetySettings; byUserId: number };
}

export type DomainEventName = keyof DomainEvents;
type Listener<E extends DomainEventName> = (event: DomainEvents[E]) => void;

export interface EventBus {
  emit<E extends DomainEventName>(name: E, event: DomainEvents[E]): void;
  /** Returns the function that stops listening. */
  on<E extends DomainEventName>(name: E, listener: Listener<E>): () => void;
}

/**
 * Listeners run synchronously, in the order they were added; one that throws does not keep the others or
 * the emitting request from going on (a push that failed must not fail the write that caused it).
 */
export function createEventBus(onListenerError: (error: unknown, name: DomainEventName) => void): EventBus {
  const listeners = new Map<DomainEventName, Set<Listener<never>>>();
  return {
    emit(name, event) {
      for (const listener of listeners.get(name) ?? []) {
        try {
          (listener as Listener<typeof name>)(event);
        } catch (error) {
          onListenerError(error, name);
        }
      }
    },
    on(name, listener) {
      const set = listeners.get(name) ?? new Set();
      listeners.set(name, set);
      set.add(listener as Listener<never>);
      return () => set.delete(listener as Listener<never>);
    },
  };
}
