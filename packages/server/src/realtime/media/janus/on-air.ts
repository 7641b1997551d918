/**
 * The floor enforced in Janus: a participant that holds the floor is on the air (its voice forwarded to the
 * channel, feed.ts) and recorded (takes.ts); one that loses it is taken off, and its take finished. An all call
 * (the dispatch console in several channels at once) is recorded once, by the first of its channels on the air.
 */

import { type Link, type Participant, serial, uplinkOf } from './participants.ts';
import { type JanusPlaneState, participantOf } from './plane-state.ts';

/**
 * Puts the participant's voice on the air or takes it off (feed.ts decides where it goes, with whatever else
 * is on the air), and starts or ends its recording (`recordAs`: the take's base name).
 */
export async function air(
  state: JanusPlaneState,
  participant: Participant,
  uplink: Link,
  on: boolean,
  recordAs?: string,
): Promise<void> {
  const { channelId } = participant;
  const record = on ? (recordAs ? { record: true, filename: recordAs } : {}) : { record: false };
  if (uplink.kind === 'bridge') {
    await uplink.handle.message({ request: 'configure', muted: !on, ...record });
    await state.feed.apply(uplink.backend, channelId, { kind: 'bridge', on });
    return;
  }
  const change = { kind: 'publisher' as const, publisherId: uplink.publisherId ?? 0, mid: uplink.mid ?? '', on };
  const recording =
    on && !recordAs
      ? undefined
      : uplink.handle.message({ request: 'configure', secret: state.keys.roomSecret(channelId), ...record });
  await Promise.all([state.feed.apply(uplink.backend, channelId, change), recording]);
}

/** Whether the participant's take is recorded: always, but in an all call's channels other than its lead's. */
function recordsHere(state: JanusPlaneState, participant: Participant): boolean {
  const call = state.allCalls.get(participant.socketId);
  if (!call?.channelIds.includes(participant.channelId)) return true;
  call.aired.add(participant.channelId);
  const leadOnAir = call.lead !== undefined && participantOf(state, call.lead, participant.socketId)?.onAir === true;
  if (!leadOnAir || call.lead === participant.channelId) call.lead = participant.channelId;
  return call.lead === participant.channelId;
}

/** The all call's other channels that its lead's take is kept in (read when the take ends). */
function allCallOf(state: JanusPlaneState, participant: Participant): (() => number[]) | undefined {
  const call = state.allCalls.get(participant.socketId);
  if (!call || call.lead !== participant.channelId) return undefined;
  return () => [...call.aired].filter((channelId) => channelId !== participant.channelId);
}

/** Puts the participant on the air (forwarded and recorded) or takes it off, as its floor says. */
export async function applyHeard(state: JanusPlaneState, participant: Participant): Promise<void> {
  const uplink = uplinkOf(participant);
  if (!uplink) return;
  if (participant.heard && !participant.onAir) {
    participant.onAir = true;
    const take = recordsHere(state, participant)
      ? await state.takes.begin(participant.channelId, participant.userId, allCallOf(state, participant))
      : undefined;
    if (take && uplink.kind === 'send') take.file = `${take.base}-audio-${uplink.mindex ?? 0}.mjr`;
    participant.take = take;
    await air(state, participant, uplink, true, take?.base);
  } else if (!participant.heard && participant.onAir) {
    const take = participant.take;
    participant.onAir = false;
    participant.take = undefined;
    await air(state, participant, uplink, false);
    if (take) void state.takes.finish(take);
  }
}

/** The floor was given to the participant (`heard`) or taken back: applied after what it has queued. */
export function setHeard(state: JanusPlaneState, participant: Participant, heard: boolean): Promise<void> {
  return serial(participant, async () => {
    participant.heard = heard;
    await applyHeard(state, participant);
  });
}
