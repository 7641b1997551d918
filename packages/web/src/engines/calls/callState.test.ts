/**
 * The tab's private call as the pushes move it: a ring, its answer, and what the caller is told when it ends;
 * a push about another call changes nothing.
 */
import type { PrivateCall } from '@talkgroup/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { callRinging, callUpdated, dismissNotice, readCall } from './callState.ts';

const desk = { id: 1, name: 'Dana Desk' };
const mia = { id: 2, name: 'Mia Field' };

function call(state: PrivateCall['state'], callId = 7): PrivateCall {
  return {
    callId,
    room: 'private  call  1  2',
    channelId: 9,
    caller: { userId: desk.id, name: desk.name },
    callee: { userId: mia.id, name: mia.name },
    state,
    startedAt: '2026-01-01T10:00:00.000Z',
    answeredAt: state === 'active' ? '2026-01-01T10:00:05.000Z' : null,
    endedAt: null,
  };
}

afterEach(() => {
  // Whatever a test left: over, and its notice read.
  callUpdated(call('ended'), mia.id);
  dismissNotice();
});

describe('the callee', () => {
  it('rings, ignores another call, and stops quietly when the caller cancels', () => {
    callRinging({ callId: 7, room: 'r', from: { userId: desk.id, name: desk.name } }, mia);
    expect(readCall()).toMatchObject({ call: { callId: 7, state: 'ringing' }, side: 'callee', here: false });
    callUpdated(call('ringing', 8), mia.id);
    expect(readCall().call?.callId).toBe(7);
    callUpdated(call('cancelled'), mia.id);
    expect(readCall()).toMatchObject({ call: null, notice: null });
  });

  it('in another tab, stays out of a call answered elsewhere', () => {
    callRinging({ callId: 7, room: 'r', from: { userId: desk.id, name: desk.name } }, mia);
    callUpdated(call('active'), mia.id);
    expect(readCall()).toMatchObject({ call: { state: 'active' }, here: false });
  });
});

describe('the caller', () => {
  it('is told that the callee declined, or did not answer', () => {
    callUpdated(call('ringing'), desk.id);
    expect(readCall()).toMatchObject({ side: 'caller' });
    callUpdated(call('declined'), desk.id);
    expect(readCall()).toMatchObject({ call: null, notice: { kind: 'declined', name: 'Mia Field' } });
    dismissNotice();
    callUpdated(call('ringing', 9), desk.id);
    callUpdated(call('missed', 9), desk.id);
    expect(readCall().notice).toEqual({ kind: 'missed', name: 'Mia Field' });
  });
});

describe('a holder of the alias called (issue 59)', () => {
  const max = { id: 3, name: 'Max Field' };
  const aliasCall = (state: PrivateCall['state'], callee = mia): PrivateCall => ({
    ...call(state),
    callee: { userId: callee.id, name: callee.name },
    alias: { aliasId: 4, name: 'Chef de quart', ringing: [mia.id, max.id] },
  });

  it('rings though the call names another holder, and stops quietly once another holder takes it', () => {
    callRinging({ callId: 7, room: 'r', from: { userId: desk.id, name: desk.name }, alias: 'Chef de quart' }, max);
    expect(readCall()).toMatchObject({ call: { alias: { name: 'Chef de quart' } }, side: 'callee' });
    callUpdated(aliasCall('ringing'), max.id);
    expect(readCall()).toMatchObject({ call: { state: 'ringing' }, side: 'callee' });
    callUpdated(aliasCall('active', mia), max.id);
    expect(readCall()).toMatchObject({ call: null, notice: null });
  });

  it('is in the call once it takes it', () => {
    callRinging({ callId: 7, room: 'r', from: { userId: desk.id, name: desk.name }, alias: 'Chef de quart' }, max);
    callUpdated(aliasCall('active', max), max.id);
    expect(readCall()).toMatchObject({ call: { state: 'active', callee: { userId: max.id } }, side: 'callee' });
  });
});
