/**
 * The dispatcher's call queue (issue 49): a member asks for dispatch on one of its channels; every dispatcher
 * and administrator who may dispatch that channel sees the request live, one takes it (a private call, or an
 * answer on the channel), sends it back, transfers it to another dispatcher or closes it. The queue lives in the
 * database: a restart, another instance or a reloaded page shows the same one. docs/dispatchers/call-queue.md.
 */
import { z } from 'zod';
import { call, Flag, Id, ok, text } from '../call.ts';

export const DISPATCH_PRIORITIES = ['normal', 'high'] as const;
export type DispatchPriority = (typeof DISPATCH_PRIORITIES)[number];

export const DISPATCH_REQUEST_STATES = [
  'waiting',
  'taken',
  'transferring',
  'closed',
  'cancelled',
  'abandoned',
  'expired',
] as const;
export type DispatchRequestState = (typeof DISPATCH_REQUEST_STATES)[number];
/** A request in one of these is open: its member may not open another on that channel. */
export const OPEN_DISPATCH_STATES = ['waiting', 'taken', 'transferring'] as const satisfies DispatchRequestState[];

/** How a dispatcher answers: a private call with the requester (it rings at once), or on the request's channel. */
export const DISPATCH_ANSWERS = ['private', 'channel'] as const;
export type DispatchAnswer = (typeof DISPATCH_ANSWERS)[number];

/** The longest note a member may add. */
export const DISPATCH_NOTE_MAX = 200;
/** How a dispatcher says a request ended when it closes it (issue 58): handled, nothing to do, sent elsewhere. */
export const DISPATCH_OUTCOMES = ['resolved', 'no_action', 'referred'] as const;
export type DispatchOutcome = (typeof DISPATCH_OUTCOMES)[number];
/** The longest close note, and incident reference, a dispatcher may give. */
export const DISPATCH_CLOSE_NOTE_MAX = 500;
export const DISPATCH_REFERENCE_MAX = 64;
/** How long a transfer waits for the other dispatcher's answer before it comes back (DISPATCH_TRANSFER_SECONDS). */
export const DISPATCH_TRANSFER_MS = 30_000;
/** A waiting request whose member has been offline this long is dropped as abandoned (DISPATCH_ABANDON_SECONDS). */
export const DISPATCH_ABANDON_MS = 120_000;
/** Defaults of DISPATCH_REMIND_SECONDS and DISPATCH_EXPIRE_MINUTES. */
export const DISPATCH_REMIND_SECONDS_DEFAULT = 60;
export const DISPATCH_EXPIRE_MINUTES_DEFAULT = 30;

const Person = z.object({ userId: z.number(), name: z.string() });

/** A request, wherever it is answered or pushed (`dispatchCallsChanged`). */
export const DispatchRequestSchema = z.object({
  requestId: z.number(),
  channelId: z.number(),
  /** The channel's name, kept on the request (it still reads after a rename or a deletion). */
  channelName: z.string(),
  requester: Person,
  priority: z.enum(DISPATCH_PRIORITIES),
  /** The member's note; '' when it wrote none. */
  note: z.string(),
  state: z.enum(DISPATCH_REQUEST_STATES),
  /**
   * While waiting: its place in the one order every dispatcher sees (high priority first, then oldest), 1 for the
   * first in line; null in any other state.
   */
  position: z.number().nullable(),
  /** How long it has waited in the queue, all waits added (sent back, it goes on counting from there). */
  waitedMs: z.number(),
  /** Who handles it (taken, or transferring: the dispatcher who transfers). */
  heldBy: Person.optional(),
  /** Transferring: the dispatcher asked to take it over (it accepts or declines within 30 s). */
  transferTo: Person.optional(),
  /** Transferring: when it comes back to its holder unless the other dispatcher answers. */
  transferUntil: z.string().optional(),
  /** Once it waited longer than DISPATCH_REMIND_SECONDS: when it was recalled to the dispatchers. */
  remindedAt: z.string().optional(),
  /** How its holder answered: a private call (`callId`) or on the channel. */
  answer: z.enum(DISPATCH_ANSWERS).optional(),
  callId: z.number().optional(),
  /** Since the first take (to its end, or now): how long it has been handled. */
  handledMs: z.number().optional(),
  createdAt: z.string(),
  /** Closed, cancelled, abandoned or expired: when. */
  endedAt: z.string().optional(),
  /** Ended after a take: the dispatcher who held it last (who took it, or the one it was transferred to). */
  takenBy: Person.optional(),
  /** Closed: who closed it, how it ended, the close note and the incident reference (each only when given). */
  closedBy: Person.optional(),
  outcome: z.enum(DISPATCH_OUTCOMES).optional(),
  closeNote: z.string().optional(),
  reference: z.string().optional(),
});
export type DispatchRequest = z.output<typeof DispatchRequestSchema>;

const RequestIdBody = z.object({ requestId: Id });
const RequestAnswer = ok({ res: DispatchRequestSchema });

/**
 * A member asks for dispatch on one of its channels (one it may read). One open request per member and channel:
 * a second answers 409 `dispatch_request_open`.
 */
export const RequestDispatchCall = call(ok({ res: z.object({ requestId: z.number(), position: z.number() }) }))(
  '/user/api/requestDispatchCall',
  'channel.read',
  z.object({
    channelId: Id,
    priority: z.enum(DISPATCH_PRIORITIES, { error: 'must be normal or high' }).default('normal'),
    note: text(DISPATCH_NOTE_MAX)
      .trim()
      .optional()
      .transform((value) => value ?? ''),
  }),
);
/** Its member withdraws it, until it is closed (waiting, taken or transferring). */
export const CancelDispatchCall = call(RequestAnswer)('/user/api/cancelDispatchCall', 'signedIn', RequestIdBody);
/**
 * A dispatcher of the request's channel takes it: `private` rings a private call with the requester at once,
 * `channel` tells the member that the dispatcher answers on the channel (no floor taken). Two takes at once: one
 * wins, the other gets 409 `dispatch_already_taken` ("Already taken by {name}").
 */
export const TakeDispatchCall = call(RequestAnswer)(
  '/user/api/takeDispatchCall',
  'channel.dispatch',
  z.object({ requestId: Id, answer: z.enum(DISPATCH_ANSWERS, { error: 'must be private or channel' }) }),
);
/** Its holder (or an administrator) sends it back to its place in the queue; its waiting time is kept. */
export const ReturnDispatchCall = call(RequestAnswer)(
  '/user/api/returnDispatchCall',
  'channel.dispatch',
  RequestIdBody,
);
/**
 * Its holder (or an administrator) hands it to another dispatcher of its channel, who accepts or declines within
 * 30 s; declined or unanswered, it comes back to its holder.
 */
export const TransferDispatchCall = call(RequestAnswer)(
  '/user/api/transferDispatchCall',
  'channel.dispatch',
  z.object({ requestId: Id, toUserId: Id }),
);
/** The dispatcher a request is transferred to accepts it (it holds it now) or declines it. */
export const AnswerDispatchTransfer = call(RequestAnswer)(
  '/user/api/answerDispatchTransfer',
  'channel.dispatch',
  z.object({ requestId: Id, accept: Flag }),
);
/**
 * Its holder or an administrator closes it, saying how it ended: `outcome` (resolved when absent, for the
 * clients written before it), a note for the record and an incident reference, both optional.
 */
export const CloseDispatchCall = call(RequestAnswer)(
  '/user/api/closeDispatchCall',
  'channel.dispatch',
  z.object({
    requestId: Id,
    outcome: z.enum(DISPATCH_OUTCOMES, { error: 'must be resolved, no_action or referred' }).default('resolved'),
    note: text(DISPATCH_CLOSE_NOTE_MAX).trim().optional(),
    reference: text(DISPATCH_REFERENCE_MAX).trim().optional(),
  }),
);
/**
 * The open requests and the day's ended ones (since midnight, the server's time), queue order first (waiting by
 * position, then taken and transferring, then ended, newest first): a dispatcher's or administrator's of the
 * channels it may dispatch, a member's own only. `state`: only those in it.
 */
export const ListDispatchCalls = call(ok({ res: z.array(DispatchRequestSchema) }))(
  '/user/api/listDispatchCalls',
  'signedIn',
  z.object({ state: z.enum(DISPATCH_REQUEST_STATES).optional() }),
);
/** Who a request may be transferred to: the other dispatchers of its channel (and administrators), online first. */
export const ListDispatchTransferTargets = call(
  ok({ res: z.array(z.object({ userId: z.number(), name: z.string(), online: z.boolean() })) }),
)('/user/api/listDispatchTransferTargets', 'channel.dispatch', RequestIdBody);
