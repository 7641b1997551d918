/**
 * A dispatcher asks a member for its video (issue 61): the member's pages get `video_request`, and the member
 * shares (its `video_start` names the request: that is its yes) or declines (`video_request_answer`); the
 * requester's pages hear the answer (`video_request_answered`). Where the organisation set remoteVideo
 * 'without_consent', the request tells the page to start without asking. A request waits VIDEO_REQUEST_SECONDS
 * (120) for its answer, in live-store.ts (Redis with REDIS_URL: the member's page may be on another instance);
 * unanswered by then it expires, and the requester is told (`video_request_answered` with `expired`). However it
 * ends, the member's pages are told (`video_request_closed`): the question leaves the phone it was not answered
 * on. Requests, answers, expiries and starts without consent are audited. Issue 69: one request pending per member
 * at a time, whoever asks (409 `video_request_pending`: one question at a time on the member's phone, and no
 * dispatcher learns that another one asked); a request and a start without consent are audited before they act,
 * and one whose audit row cannot be written does not happen (503 `video_not_audited`).
 */
import { randomUUID } from 'node:crypto';
import type { AuditAction } from '@talkgroup/protocol';
import type { AuditStore } from '../audit/store.ts';
import { conflict, HttpError } from '../http/errors.ts';
import type { Faults } from '../process/faults.ts';
import type { Io } from '../sockets/io.ts';
import { userRoom } from '../sockets/room-names.ts';
import type { LiveVideoStore, PendingVideoRequest } from './live-store.ts';

/** How long an ended request is still known (an answer that comes after is told it is over, not unknown). */
const KEPT_AFTER_MS = 60_000;

export interface VideoRequestDeps {
  io: Io;
  store: LiveVideoStore;
  audit: AuditStore;
  users: { row(id: number): Promise<{ display_name: string } | undefined> };
  faults: Faults;
  /** How long a request waits for the member's answer or start (VIDEO_REQUEST_SECONDS). */
  ttlMs: number;
}

/** How a request ended, as the member's pages are told. */
export type VideoRequestEnd = 'accepted' | 'declined' | 'started' | 'expired';

export function videoRequests(deps: VideoRequestDeps) {
  const { io, store } = deps;

  /** One audit row: what happened to whose video. */
  async function write(
    action: AuditAction,
    actorId: number,
    request: Pick<PendingVideoRequest, 'userId' | 'requestId' | 'channelId'>,
    changes: Record<string, unknown>,
    origin: { address: string | null; requestId: string | null } = { address: null, requestId: null },
  ): Promise<void> {
    const member = await deps.users.row(request.userId);
    await deps.audit.write({
      actorId,
      action,
      targetType: 'user',
      targetId: request.userId,
      targetName: member?.display_name ?? null,
      changes: Object.fromEntries(
        Object.entries({ videoRequestId: request.requestId, channelId: request.channelId, ...changes }).map(
          ([key, value]) => [key, { before: null, after: value }],
        ),
      ),
      ...origin,
    });
  }

  const auditFault = (error: unknown) => deps.faults.fault('worker', error, { worker: 'video audit' });
  /** An audit row that could not be written: counted as a fault, and what it was for does not happen. */
  const notAudited = (error: unknown): never => {
    auditFault(error);
    throw new HttpError(503, 'video_not_audited');
  };
  const tellRequester = (request: PendingVideoRequest, accepted: boolean, expired = false) =>
    io.to(userRoom(request.fromUserId)).emit('video_request_answered', {
      requestId: request.requestId,
      userId: request.userId,
      accepted,
      ...(expired ? { expired: true } : {}),
    });
  const closeAtMember = (request: PendingVideoRequest, reason: VideoRequestEnd) =>
    io.to(userRoom(request.userId)).emit('video_request_closed', { requestId: request.requestId, reason });

  /** The expiry timers of this instance's requests (the store settles each once, whichever instance fires). */
  const expiries = new Map<string, NodeJS.Timeout>();
  async function expire(requestId: string): Promise<void> {
    expiries.delete(requestId);
    const settled = await store.settleRequest(requestId, ['pending'], 'expired');
    if (!settled) return;
    tellRequester(settled, false, true);
    closeAtMember(settled, 'expired');
    await write('video.request_expired', settled.fromUserId, settled, { expired: true });
  }

  return {
    /**
     * Asks the member's pages (the caller checked who may ask whom): 409 while the member has a request pending;
     * audited before it is sent, and not sent when its row cannot be written.
     */
    async ask(
      input: Omit<PendingVideoRequest, 'requestId' | 'state'>,
      origin: { address: string | null; requestId: string | null },
    ): Promise<PendingVideoRequest> {
      const request: PendingVideoRequest = { ...input, requestId: randomUUID(), state: 'pending' };
      if (!(await store.addRequest(request, deps.ttlMs + KEPT_AFTER_MS, deps.ttlMs)))
        throw conflict('video_request_pending');
      const { withoutConsent } = request;
      await write('video.request', request.fromUserId, request, { withoutConsent }, origin).catch(async (error) => {
        await store.dropRequest(request);
        return notAudited(error);
      });
      const timer = setTimeout(() => void expire(request.requestId).catch(auditFault), deps.ttlMs);
      timer.unref();
      expiries.set(request.requestId, timer);
      const { requestId, channelId, room, fromUserId, fromName: name } = request;
      io.to(userRoom(request.userId)).emit('video_request', {
        requestId,
        channelId,
        room,
        fromUserId,
        name,
        withoutConsent,
      });
      return request;
    },

    /** The member's answer; false when the request is over, answered already, or not this member's. */
    async answer(userId: number, requestId: string, accepted: boolean): Promise<boolean> {
      const request = await store.request(requestId);
      if (!request || request.userId !== userId) return false;
      const settled = await store.settleRequest(requestId, ['pending'], accepted ? 'accepted' : 'declined');
      if (!settled) return false;
      tellRequester(settled, accepted);
      closeAtMember(settled, accepted ? 'accepted' : 'declined');
      // Told first: the answer stands even if its audit row fails (counted and logged as a fault).
      await write('video.answer', userId, settled, { accepted }).catch(auditFault);
      return true;
    },

    /**
     * A start that names a request of this member in this channel takes it (once): the request as it was, or
     * undefined when there is no such request waiting. A start without consent is audited first, with the stream it
     * starts: when its row cannot be written, nothing starts (503 `video_not_audited`) and the request still waits.
     */
    async take(
      requestId: string,
      userId: number,
      channelId: number,
      streamId: string,
    ): Promise<PendingVideoRequest | undefined> {
      const request = await store.request(requestId);
      if (!request || request.userId !== userId || request.channelId !== channelId) return undefined;
      if (!['pending', 'accepted'].includes(request.state)) return undefined;
      if (request.withoutConsent)
        await write('video.start_without_consent', request.fromUserId, request, { streamId }).catch(notAudited);
      const taken = await store.settleRequest(requestId, ['pending', 'accepted'], 'started');
      if (taken) closeAtMember(taken, 'started');
      return taken;
    },

    /** The server stops: no expiry fires any more. */
    close(): void {
      for (const timer of expiries.values()) clearTimeout(timer);
      expiries.clear();
    },

    /** After the start is answered: a pending request's start is its yes (a start without consent was audited). */
    async started(request: PendingVideoRequest, streamId: string): Promise<void> {
      if (!request.withoutConsent && request.state === 'pending') {
        tellRequester(request, true);
        await write('video.answer', request.userId, request, { accepted: true, streamId }).catch(auditFault);
      }
    },
  };
}

export type VideoRequests = ReturnType<typeof videoRequests>;
