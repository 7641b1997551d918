/** The call queue's calls (issue 49, docs/api.md "Call queue"); the rules are in queue.ts. */
import {
  AnswerDispatchTransfer,
  CancelDispatchCall,
  CloseDispatchCall,
  ListDispatchCalls,
  ListDispatchTransferTargets,
  RequestDispatchCall,
  ReturnDispatchCall,
  TakeDispatchCall,
  TransferDispatchCall,
} from '@talkgroup/protocol';
import type { FastifyInstance } from 'fastify';
import type { CounterStore } from '../auth/counter-store.ts';
import { DISPATCH_CANCEL_LIMIT, DISPATCH_REQUEST_LIMIT, slidingCallLimiter } from '../auth/rate-limit.ts';
import type { SessionStore } from '../auth/sessions.ts';
import { said } from '../http/messages.ts';
import { defineRoutes } from '../http/route.ts';
import type { DispatchQueue } from './queue.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface DispatchQueueServices {
  dispatchQueue: DispatchQueue;
  sessions: SessionStore;
  /** The limits' counters (Redis with REDIS_URL: every instance counts the same calls). */
  counters: CounterStore;
}

export function dispatchQueueRoutes(app: FastifyInstance, services: DispatchQueueServices): void {
  const queue = services.dispatchQueue;
  const route = defineRoutes(app, services.sessions);
  // A member's loop of requests and cancels would reach every desk of its channel (issue 57): counted per user
  // before anything is read, written or pushed. The dispatchers' own steps below are not limited.
  const requestLimit = slidingCallLimiter(services.counters, 'dispatch-request', DISPATCH_REQUEST_LIMIT);
  const cancelLimit = slidingCallLimiter(services.counters, 'dispatch-cancel', DISPATCH_CANCEL_LIMIT);

  route(RequestDispatchCall, async ({ body, auth }) => {
    await requestLimit(auth.userId);
    return { success: true, ...said('dispatch_requested'), res: await queue.request(auth, body) };
  });
  route(CancelDispatchCall, async ({ body, auth }) => {
    await cancelLimit(auth.userId);
    return { success: true, ...said('dispatch_cancelled'), res: await queue.cancel(auth, body.requestId) };
  });
  route(TakeDispatchCall, async ({ body, auth }) => ({
    success: true,
    ...said('dispatch_taken'),
    res: await queue.take(auth, body.requestId, body.answer),
  }));
  route(ReturnDispatchCall, async ({ body, auth }) => ({
    success: true,
    ...said('dispatch_returned'),
    res: await queue.sendBack(auth, body.requestId),
  }));
  route(TransferDispatchCall, async ({ body, auth }) => {
    const res = await queue.transfer(auth, body.requestId, body.toUserId);
    return { success: true, ...said('dispatch_transferred', { name: res.transferTo?.name ?? '' }), res };
  });
  route(AnswerDispatchTransfer, async ({ body, auth }) => ({
    success: true,
    ...said('dispatch_transfer_answered'),
    res: await queue.answerTransfer(auth, body.requestId, body.accept),
  }));
  route(CloseDispatchCall, async ({ body, auth }) => ({
    success: true,
    ...said('dispatch_closed'),
    res: await queue.close(auth, body.requestId, body),
  }));
  route(ListDispatchCalls, async ({ body, auth }) => ({ success: true, res: await queue.list(auth, body.state) }));
  route(ListDispatchTransferTargets, async ({ body, auth }) => ({
    success: true,
    res: await queue.transferTargets(auth, body.requestId),
  }));
}
