/**
 * The tab's private call (issue 27): the one that rings or goes on, whether this tab placed or accepted it
 * (only that tab joins its room: another tab of the same user stops ringing and stays out), and what the
 * caller is told when it ends. Fed by the server's pushes (incomingCall, privateCallUpdated) and by this tab's
 * own calls; read by React through useSyncExternalStore.
 */
import {
  AnswerPrivateCall,
  EndPrivateCall,
  GetPrivateCalls,
  type PrivateCall,
  type PrivateCallState,
  StartPrivateCall,
} from '@talkgroup/protocol';
import { useSyncExternalStore } from 'react';
import { api } from '../../api/client.ts';

export type CallNotice =
  | { kind: Exclude<PrivateCallState, 'ringing' | 'active'>; name: string }
  | { kind: 'failed'; name: string; error: unknown };

export interface CallSnapshot {
  call: PrivateCall | null;
  /** This tab placed the call or accepted it: it rings back, joins the room, shows the call. */
  here: boolean;
  /** The user's side of the call. */
  side: 'caller' | 'callee' | null;
  notice: CallNotice | null;
}

const OVER: ReadonlySet<PrivateCallState> = new Set(['declined', 'missed', 'cancelled', 'ended']);

let snapshot: CallSnapshot = { call: null, here: false, side: null, notice: null };
const listeners = new Set<() => void>();

function set(next: Partial<CallSnapshot>): void {
  snapshot = { ...snapshot, ...next };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function readCall(): CallSnapshot {
  return snapshot;
}

export function useCallState(): CallSnapshot {
  return useSyncExternalStore(subscribe, readCall);
}

const otherParty = (call: PrivateCall, side: CallSnapshot['side']) =>
  side === 'caller' ? call.callee.name : call.caller.name;

/** A change pushed by the server (both parties get each one). */
export function callUpdated(call: PrivateCall, selfId: number): void {
  const side = call.caller.userId === selfId ? 'caller' : 'callee';
  const current = snapshot.call;
  if (current && current.callId !== call.callId) return;
  // A call to an alias this user holds (issue 59): it rings here until another holder takes it, then stops.
  const rung = call.state === 'ringing' && call.alias?.ringing.includes(selfId) === true;
  if (call.caller.userId !== selfId && call.callee.userId !== selfId && !rung) {
    if (current) set({ call: null, here: false, side: null, notice: null });
    return;
  }
  if (OVER.has(call.state)) {
    if (!current) return;
    // The caller learns how it ended, and a party of the call that it is over; a ring that stops needs no word.
    const tell = snapshot.here || (side === 'caller' && call.state !== 'cancelled');
    const notice = tell
      ? { kind: call.state as Exclude<PrivateCallState, 'ringing' | 'active'>, name: otherParty(call, side) }
      : null;
    set({ call: null, here: false, side: null, notice });
    return;
  }
  // The request a call answers came with its ring (issue 58): kept through the call's later changes.
  const request = call.request ?? current?.request;
  set({
    call: request ? { ...call, request } : call,
    side,
    here: snapshot.here || (side === 'caller' && current !== null),
  });
}

/** The callee's pages ring. */
export function callRinging(
  payload: {
    callId: number;
    room: string;
    from: { userId: number; name: string };
    /** The callee's dispatch request this call answers (issue 58). */
    requestId?: number;
    note?: string;
    /** A call to a functional alias this user holds (issue 59). */
    alias?: string;
  },
  self: { id: number; name: string },
): void {
  if (snapshot.call) return;
  const now = new Date().toISOString();
  set({
    call: {
      callId: payload.callId,
      room: payload.room,
      channelId: 0,
      caller: payload.from,
      callee: { userId: self.id, name: self.name },
      state: 'ringing',
      startedAt: now,
      answeredAt: null,
      endedAt: null,
      ...(payload.requestId !== undefined
        ? { request: { requestId: payload.requestId, note: payload.note ?? '' } }
        : {}),
      ...(payload.alias ? { alias: { aliasId: 0, name: payload.alias, ringing: [self.id] } } : {}),
    },
    side: 'callee',
    here: false,
    notice: null,
  });
}

/** Calls `callee` (or whoever holds a functional alias, issue 59) from this tab; a refusal becomes a notice. */
export async function placeCall(
  callee: { id: number; name: string } | { aliasId: number; name: string },
  self: { id: number; name: string },
): Promise<void> {
  if (snapshot.call) return;
  try {
    const alias = 'aliasId' in callee;
    const { res } = await api(StartPrivateCall, alias ? { aliasId: callee.aliasId } : { userId: callee.id });
    const now = new Date().toISOString();
    // The server's push of the ringing call may have come first.
    const pushed = snapshot.call as PrivateCall | null;
    set({
      call:
        pushed?.callId === res.callId
          ? pushed
          : {
              callId: res.callId,
              room: res.room,
              channelId: 0,
              caller: { userId: self.id, name: self.name },
              callee: { userId: alias ? null : callee.id, name: callee.name },
              state: 'ringing',
              startedAt: now,
              answeredAt: null,
              endedAt: null,
            },
      side: 'caller',
      here: true,
      notice: null,
    });
  } catch (error) {
    set({ notice: { kind: 'failed', name: callee.name, error } });
  }
}

export async function answerCall(accept: boolean): Promise<void> {
  const call = snapshot.call;
  if (!call) return;
  try {
    const { res } = await api(AnswerPrivateCall, { callId: call.callId, accept });
    if (accept) set({ call: res, here: true, side: 'callee' });
    else set({ call: null, here: false, side: null });
  } catch (error) {
    set({ call: null, here: false, side: null, notice: { kind: 'failed', name: call.caller.name, error } });
  }
}

export async function hangUp(): Promise<void> {
  const call = snapshot.call;
  if (!call) return;
  set({ call: null, here: false, side: null });
  await api(EndPrivateCall, { callId: call.callId }).catch(() => {});
}

export function dismissNotice(): void {
  set({ notice: null });
}

/** After a reload: an answered call of this user goes on here. */
export async function resumeCall(selfId: number): Promise<void> {
  if (snapshot.call) return;
  const { res } = await api(GetPrivateCalls, { limit: 5 });
  const active = res.find((call) => call.state === 'active');
  if (active && !snapshot.call)
    set({ call: active, here: true, side: active.caller.userId === selfId ? 'caller' : 'callee', notice: null });
  // Opened from a call's notification (issue 34), or while a call rings: it rings here too.
  const ringing = res.find((call) => call.state === 'ringing' && call.callee.userId === selfId);
  if (!active && ringing && !snapshot.call) set({ call: ringing, here: false, side: 'callee', notice: null });
}

/**
 * A call the server placed for this user at its request (a dispatch request taken by private call, issue 49):
 * this tab placed it, so it rings back here and joins the call once answered.
 */
export async function followPlacedCall(callId: number, selfId: number): Promise<void> {
  if (snapshot.call && snapshot.call.callId !== callId) return;
  const { res } = await api(GetPrivateCalls, { limit: 5 });
  const placed = res.find((call) => call.callId === callId && call.caller.userId === selfId);
  if (!placed || OVER.has(placed.state)) return;
  // The server's push of the call may have come meanwhile: the newer of the two stays.
  const current = snapshot.call;
  if (current && current.callId !== callId) return;
  set({ call: current ?? placed, side: 'caller', here: true, notice: null });
}
