/** Socket.IO events of spec section 7, typed once for the server and the web client. */
import { z } from 'zod';
import type { AmbientClientEvents, AmbientServerEvents } from './api/ambient.ts';
import type { PrivateCall } from './api/calls.ts';
import type { DeviceClientEvents, DeviceServerEvents } from './api/devices.ts';
import type { GeofenceAlert } from './api/geofences.ts';
import type { DispatchRequest } from './api/queue.ts';
import type { SelectedChannelChanged } from './api/regroups.ts';
import type { LoneWorkerAlert, LoneWorkerChange, LoneWorkerCheck } from './api/safety.ts';
import type { MemberStatus } from './api/statuses.ts';
import type { VideoClientEvents, VideoServerEvents } from './api/video.ts';
import type { EmergencyAlert } from './emergency.ts';
import type { Activity, Message, VoiceMessage } from './entities.ts';
import type {
  BroadcastAnswer,
  BroadcastRequest,
  FloorAnswer,
  FloorCancel,
  FloorQueueEntry,
  FloorQueueRemove,
  FloorRequest,
  FloorRevokeReason,
} from './floor-events.ts';

/** How a socket is in a channel: talking (it may ask for the floor) or only listening. */
export const PARTICIPATION_MODES = ['talk', 'listen'] as const;
export type ParticipationMode = (typeof PARTICIPATION_MODES)[number];

export interface RoomPeer {
  /** The socket id. */
  id: string;
  name: string;
  userId: number;
  /** The channel (rtcSession) this peer is in, for a socket in several. */
  room?: string;
  mode?: ParticipationMode;
  /**
   * A SIP gateway's call (issue 51: a radio or a desk phone): `id` is `sip:` and its Call-ID, `userId` the user it
   * talks as, `name` the gateway's. It has no socket: nothing connects to it; it is heard through the media server.
   */
  gateway?: { gatewayId: number; callId: string };
  /** The peer's functional aliases (issue 59), when its user holds any: "Chef de quart". */
  alias?: string;
}

/*
 * Each schema validates what the server uses and nothing else: fields that clients send and the server
 * ignores (the sender's own id and name, which the server takes from the socket) are left out, so that an
 * old client sending them as a number or a string is never refused. Unknown fields are dropped.
 */

/**
 * room: the channel's rtcSession. Old clients send their name too; peers are shown the account's. With `mode`
 * the channel is added to the socket's channels; without it (the spec's clients) the socket leaves the others.
 */
export const JoinRoom = z.object({ room: z.string().min(1).max(200), mode: z.enum(PARTICIPATION_MODES).optional() });
/** Leaves that channel; without `room`, every channel of the socket. */
export const LeaveRoom = z.object({ room: z.string().max(200).optional() });
/**
 * Signalling names its channel (`room`) when the socket is in several; the spec's clients, in one, leave it
 * out. Old clients also send offerSendID and offerSendName: the server uses the socket's own.
 */
const InRoom = { room: z.string().max(200).optional() };
export const Offer = z.object({ sdp: z.unknown(), offerReceiveID: z.string().max(100), ...InRoom });
export const Answer = z.object({ sdp: z.unknown(), answerReceiveID: z.string().max(100), ...InRoom });
export const Candidate = z.object({ candidate: z.unknown(), candidateReceiveID: z.string().max(100), ...InRoom });
/** Old clients also send `id` (their socket id, as a number or a string): the server uses the real one. */
export const MicStateChange = z.object({
  /** Old clients may send "true" / "false". */
  micState: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]),
  room: z.string().max(200).optional(),
});
export const Typing = z.object({ room: z.string().max(200).optional() });
export const ChatMessage = z.object({
  channelId: z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)]),
  message: z.string().trim().min(1).max(4000),
});
export const LocationChanged = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  accuracy: z.number().min(0).max(1e7).optional(),
});

/** The channels a socket follows from outside their rooms (who talks there): at most a member's list. */
export const WatchChannels = z.object({
  channelIds: z.array(z.union([z.number().int().positive(), z.string().regex(/^\d+$/).transform(Number)])).max(500),
});

/**
 * How a channel's voice travels: `mesh`, peer to peer between the browsers (the server relays their
 * signalling), or `server`, through the media server (JANUS_URL), which enforces the floor and records.
 */
export const MEDIA_KINDS = ['mesh', 'server'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * A page's connections to the media server in a `server` channel (issue 37): `send`, its microphone going up
 * (sent only while it holds the floor, then forwarded as it is to every listener), and `receive`, the channel's
 * voice coming down (the channel's stream, `media_watch`). A page that only listens has the second alone.
 */
export const MEDIA_LEGS = ['send', 'receive'] as const;
export type MediaLeg = (typeof MEDIA_LEGS)[number];

/**
 * The browser's offer to the media server in a channel (a `server` channel): `leg: 'send'` for its microphone
 * (the answer receives only); without a leg, one connection that sends and receives the channel's mix (an
 * older page of the app, answered by the channel's mixer).
 */
export const MediaOffer = z.object({
  room: z.string().max(200).optional(),
  sdp: z.string().min(1).max(100_000),
  leg: z.literal('send').optional(),
});
/**
 * A candidate of one of those connections (null: gathering is complete); `leg` names which (without it: the
 * offered one if there is one, else the receiving one).
 */
export const MediaCandidate = z.object({
  room: z.string().max(200).optional(),
  candidate: z.unknown(),
  leg: z.enum(MEDIA_LEGS).optional(),
});
/** A listener asks for the channel's mix (the media server offers: its answer carries the server's SDP). */
export const MediaWatch = z.object({ room: z.string().max(200).optional() });
/** The listener's answer to that offer. */
export const MediaAnswer = z.object({ room: z.string().max(200).optional(), sdp: z.string().min(1).max(100_000) });

// The floor's payloads (issue 14, 27, 59) are floor-events.ts's.
export * from './floor-events.ts';
/**
 * The answer to join_room when the client asks for one: with a mode, the channel and mode it is in now (the
 * peers there arrive as `all_users`, each naming its room); without one (the spec's clients), `{ success }`.
 */
export type JoinAnswer =
  | { success: true; room?: string; mode?: ParticipationMode }
  | { success: false; result: string };

export interface UserStatus {
  userId: number;
  online: boolean;
  channelIds: number[];
}

export interface ClientToServerEvents extends DeviceClientEvents, AmbientClientEvents, VideoClientEvents {
  join_room: (payload: z.input<typeof JoinRoom> & { name?: string }, ack?: (answer: JoinAnswer) => void) => void;
  leave_room: (
    payload?: z.input<typeof LeaveRoom>,
    ack?: (answer: { success: boolean; result?: string }) => void,
  ) => void;
  offer: (payload: z.input<typeof Offer> & { offerSendID?: string; offerSendName?: string }) => void;
  answer: (payload: z.input<typeof Answer> & { answerSendID?: string }) => void;
  candidate: (payload: z.input<typeof Candidate> & { candidateSendID?: string }) => void;
  micStateChange: (payload: z.input<typeof MicStateChange> & { id?: string | number }) => void;
  typing: (payload?: z.input<typeof Typing> & { name?: string }) => void;
  message: (
    payload: z.input<typeof ChatMessage>,
    ack?: (result: { success: boolean; result?: string }) => void,
  ) => void;
  'message created': (payload: unknown) => void;
  onLocationChanged: (payload: z.input<typeof LocationChanged>) => void;
  /** Press: asks for the channel's floor; the answer says whether it is given, or who holds it. */
  floor_request: (payload: z.input<typeof FloorRequest>, ack: (answer: FloorAnswer) => void) => void;
  /** Release: gives the floor back (nothing happens if this socket does not hold it). Does not leave the queue. */
  floor_release: (payload?: z.input<typeof FloorRequest>) => void;
  /** Issue 59: leaves the channel's floor queue (or declines an offer); `success` false when it was not queued. */
  floor_cancel: (
    payload: z.input<typeof FloorCancel>,
    ack?: (answer: { success: boolean; result?: string }) => void,
  ) => void;
  /** Issue 59: a dispatcher or administrator removes a user from a channel's floor queue. */
  floor_queue_remove: (
    payload: z.input<typeof FloorQueueRemove>,
    ack?: (answer: { success: boolean; result?: string }) => void,
  ) => void;
  /** Hear who talks in these channels (onMicStateChanged) without being in their rooms; the answer lists those allowed. */
  watch_channels: (
    payload: z.input<typeof WatchChannels>,
    ack?: (answer: { success: boolean; channelIds?: number[]; result?: string }) => void,
  ) => void;
  /** A `server` channel: the browser's offer to the media server; the answer carries the server's SDP. */
  media_offer: (
    payload: z.input<typeof MediaOffer>,
    ack: (answer: { success: true; sdp: string } | { success: false; result: string }) => void,
  ) => void;
  media_candidate: (payload: z.input<typeof MediaCandidate>) => void;
  /**
   * All call: takes the floor of each of these channels of the socket, one floor decision per channel (a
   * dispatcher preempts members); the answer lists the channels granted and those refused, with why.
   */
  broadcast_request: (
    payload: z.input<typeof BroadcastRequest>,
    ack: (answer: BroadcastAnswer | { success: false; result: string }) => void,
  ) => void;
  /** The end of an all call: gives back the floor of these channels (those the socket holds). */
  broadcast_release: (payload: z.input<typeof BroadcastRequest>) => void;
  /**
   * A `server` channel, a page that only listens: the media server's offer of the channel's mix (one stream
   * encoded once for every listener); the page answers with `media_answer`.
   */
  media_watch: (
    payload: z.input<typeof MediaWatch>,
    ack: (answer: { success: true; sdp: string } | { success: false; result: string }) => void,
  ) => void;
  media_answer: (
    payload: z.input<typeof MediaAnswer>,
    ack?: (answer: { success: boolean; result?: string }) => void,
  ) => void;
  /** SOS: the same as POST /user/api/sendEmergencyAlert; the answer carries the alert or why it was refused. */
  emergency_alert: (
    payload: { channelId?: number | string; lat?: number; lng?: number; accuracy?: number },
    ack?: (answer: { success: true; res: EmergencyAlert } | { success: false; result: string }) => void,
  ) => void;
  /**
   * The dispatch console is open on this socket's page (`open: true`) or no longer (issue 49): a dispatcher with
   * no such socket gets a waiting request's reminder as a Web Push instead of the console's sound.
   */
  dispatch_console: (payload: { open: boolean }, ack?: (answer: { success: boolean; result?: string }) => void) => void;
}

/** Why the server ended a session's sockets for good (the client must not reconnect with that token). */
export type SessionEndReason = 'logout' | 'revoked' | 'password' | 'deleted' | 'disabled' | 'ended';

/**
 * What changed in the rights of a connected user (`rights_changed`): its `role`; its `map` access (mapRight,
 * or a channel's map it sees or no longer sees); its `channels` (one it was in or watched and may no longer
 * be in: a membership removed); or whether it may `talk` in a channel it is in (a membership made listen-only,
 * or no longer).
 */
export const RIGHTS_CHANGES = ['role', 'map', 'channels', 'talk'] as const;
export type RightsChange = (typeof RIGHTS_CHANGES)[number];

export interface RightsChanged {
  /** The user's role and map access now. */
  role: string;
  mapRight: boolean;
  changes: RightsChange[];
  /** The channel rooms (rtcSession) the socket was taken out of. */
  left: string[];
  /** What changed, in English, for a client that shows the server's sentence. */
  message: string;
}

export interface ServerToClientEvents extends DeviceServerEvents, AmbientServerEvents, VideoServerEvents {
  error: (payload: { message: string }) => void;
  /**
   * To a socket that joins a channel, first, and whenever it changes: how that channel's voice travels
   * (`fallback`: it should go through the media server, but none answers now: peer to peer until one does).
   */
  media_plane: (payload: { room: string; kind: MediaKind; fallback?: boolean }) => void;
  /**
   * To a socket in a `server` channel: its connection to the media server is gone (the media server restarted,
   * or it was never made): it offers again, until the server answers.
   */
  media_reset: (payload: { room: string; reason: string }) => void;
  /** To the room: someone holds the floor now (since: ISO time). */
  floor_taken: (payload: {
    room: string;
    userId: number;
    name: string;
    since: string;
    /** The talker's functional aliases (issue 59), when it holds any: "Chef de quart". */
    alias?: string;
  }) => void;
  /** To the room: nobody holds the floor. */
  floor_idle: (payload: { room: string }) => void;
  /**
   * To the holder only: the server gave it the floor without a press (an emergency: open microphone for
   * holdMs, then floor_revoked with reason timeout).
   */
  floor_granted: (
    payload:
      | { room: string; reason: 'emergency'; holdMs: number; grantId: string }
      /**
       * Issue 59: to the first socket of the queue when the floor frees: an offer, confirmed by a floor_request
       * within acceptMs (answered `granted: true` with this grantId); else floor_revoked `not_taken`.
       */
      | { room: string; reason: 'queue'; grantId: string; acceptMs: number },
  ) => void;
  /**
   * Issue 59: to a queued socket, whenever its place in the channel's floor queue changes (from 1); 0: it left
   * the queue without the floor (removed by a dispatcher, expired).
   */
  floor_queue_position: (payload: { room: string; position: number }) => void;
  /** Issue 59: to the channel's room (and those who monitor it): the floor queue now, first first. */
  floor_queue: (payload: { room: string; queue: FloorQueueEntry[] }) => void;
  /** To every administrator and the rooms of the sender's channels: an SOS. */
  emergencyAlert: (alert: EmergencyAlert) => void;
  /** To the same: someone took the alert, or closed it with its outcome (issue 50). */
  emergencyAcknowledged: (alert: EmergencyAlert) => void;
  /**
   * To the holder only: the floor was taken back (its client switches its microphone off); `by`, for
   * `preempted`, names who took it (issue 59).
   */
  floor_revoked: (payload: { room: string; reason: FloorRevokeReason; by?: { userId: number; name: string } }) => void;
  /**
   * To every socket of an instance whose link to the other instances (Redis) came back: pushes between
   * instances may have been lost meanwhile, so the client fetches what it shows again (chat after its newest
   * message, voice history, lists). The connection itself stayed open: nothing to rejoin.
   */
  resync: (payload: { reason: 'redis' }) => void;
  /** Sent just before the server closes a socket whose session ended; any other close is followed by a reconnect. */
  session_ended: (payload: { reason: SessionEndReason; message: string }) => void;
  /**
   * To a socket whose user's rights changed while it was connected (a role, mapRight, a membership or its
   * canTalk): the server has already applied them (rooms left, positions and talk events stopped, a floor it
   * may no longer hold given back); the page follows (it reads the session and its lists again).
   */
  rights_changed: (payload: RightsChanged) => void;
  all_users: (peers: RoomPeer[]) => void;
  usersInThisRoom: (peers: RoomPeer[]) => void;
  'user joined': (peer: RoomPeer) => void;
  getOffer: (payload: { sdp: unknown; offerSendID: string; offerSendName: string; room: string }) => void;
  getAnswer: (payload: { sdp: unknown; answerSendID: string; room: string }) => void;
  getCandidate: (payload: { candidate: unknown; candidateSendID: string; room: string }) => void;
  /** A peer left this channel (`room`); it may still be in others. */
  user_exit: (payload: { id: string; room: string }) => void;
  onMicStateChanged: (payload: { id: string; userId: number; name: string; micState: boolean; room: string }) => void;
  typingResponse: (payload: { id: string; userId: number; name: string; room: string }) => void;
  messageResponse: (message: Message) => void;
  onSendMessage: (message: Message) => void;
  onMessageDeleted: (payload: { id: number; channelId: number }) => void;
  /** To the channel's room: a transmission was recorded (voice history, issue 15). */
  voiceMessage: (voiceMessage: VoiceMessage) => void;
  voiceMessageDeleted: (payload: { id: number; channelId: number }) => void;
  /**
   * To the user's sockets (issue 34): its missed transmissions changed in these channels (one was recorded that
   * it did not hear, or one of its devices played them, or its status changed): read getMissedTransmissions again.
   */
  missedTransmissionsChanged: (payload: { channelIds: number[]; busy?: boolean }) => void;
  /** To the user's sockets (issue 34): one of its devices took a channel out of the scan or put it back. */
  scanListChanged: (payload: { channelId: number; scan: boolean }) => void;
  onLocationChanged: (payload: {
    userId: number;
    lat: number;
    lng: number;
    accuracy: number | null;
    createdAt: string;
  }) => void;
  onUserStatusChanged: (status: UserStatus) => void;
  userConnected: (status: UserStatus) => void;
  /**
   * To clients that connected with `pushes=once` (instead of onUserStatusChanged and userConnected): the
   * presence changes of a moment, gathered; `cameOnline` lists the users whose first socket connected;
   * `connected`: the connected count of each channel these changes touched, as getAllChannels gives it.
   */
  onUserStatusesChanged: (payload: {
    statuses: UserStatus[];
    cameOnline: number[];
    connected: Array<{ channelId: number; connected: number }>;
  }) => void;
  onActivity: (activity: Activity) => void;
  /** To the callee's sockets: a private call rings (Accept / Decline: answerPrivateCall). */
  /** `requestId` and `note`: the call answers the callee's dispatch request (issue 58). */
  incomingCall: (payload: {
    callId: number;
    room: string;
    from: { userId: number; name: string };
    requestId?: number;
    note?: string;
    /** A call to a functional alias this user holds (issue 59): its name ("Chef de quart"). */
    alias?: string;
  }) => void;
  /** To both parties' sockets: a private call changed (answered, declined, missed, cancelled, ended). */
  privateCallUpdated: (call: PrivateCall) => void;
  /** To administrators and the supervisors and rooms of the channels concerned: patches were made or undone. */
  patchesChanged: (payload: { channelIds: number[] }) => void;
  onUserDeleted: (payload: { id: number }) => void;
  onChannelDeleted: (payload: { id: number }) => void;
  onChannelsChanged: () => void;
  onUsersChanged: () => void;
  /** To the administrators and the dispatchers of the fence's channel: a member crossed a geofence's edge. */
  geofenceAlert: (alert: GeofenceAlert) => void;
  /** To the same: a fence was drawn, changed or deleted (maps fetch getGeofences again). */
  geofencesChanged: (payload: { channelId: number | null }) => void;
  /**
   * A dispatch request changed (issue 49), one event per request: to its member's sockets, and to every
   * administrator and dispatcher who may dispatch its channel (on every instance). A waiting request whose place
   * moved is a change too.
   */
  dispatchCallsChanged: (request: DispatchRequest) => void;
  /**
   * A member's status changed (issue 49): to administrators, the rooms and supervisors of its channels, and its
   * own sockets. `statusId` null: none.
   */
  memberStatusChanged: (status: MemberStatus) => void;
  /** Issue 59: to the member's sockets: its /talk switches now (a regroup, its end, a dispatcher's choice). */
  selected_channel_changed: (payload: SelectedChannelChanged) => void;
  /** Issue 59: to administrators and the dispatchers of a regroup's channel: the open regroups changed. */
  regroupsChanged: (payload: { regroupId: number }) => void;
  /** The organisation's list of statuses changed (listStatuses again). */
  statusesChanged: () => void;
  /** Issue 59: functional aliases or their holders changed (getAliases again). */
  aliases_changed: () => void;
  /** Issue 60: to a lone worker's sockets: "Are you OK?" (checkIn answers); `reminder` the second time. */
  lone_worker_check: (payload: LoneWorkerCheck) => void;
  /** Issue 60: to administrators and the dispatchers of the member's channels: it answered no check twice. */
  loneWorkerAlert: (payload: LoneWorkerAlert) => void;
  /** Issue 70: to administrators and the dispatchers of the member's channels: its lone work changed (null: off). */
  loneWorkerChanged: (payload: LoneWorkerChange) => void;
}
