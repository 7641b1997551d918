/**
 * One channel through Janus on this instance: who is in it here, their floor changes, and its rooms' end. The
 * rooms are made by the first negotiation (negotiation.ts); they go when nobody is left, here or elsewhere.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { JanusBackend } from '../../../janus/backends.ts';
import type { ChannelMedia, MediaParticipant } from '../plane.ts';
import { dropLinks } from './links.ts';
import { setHeard } from './on-air.ts';
import { type Participant, serial } from './participants.ts';
import { everyone, type JanusPlaneState } from './plane-state.ts';
import { scheduleSpecOffer } from './recovery.ts';

/** When an empty channel's rooms are looked at again while Janus still counts someone in them. */
const CLOSE_AGAIN_MS = [250, 500, 1_000, 2_000, 4_000, 8_000];

/**
 * Nobody here is in the channel any more: its rooms go once Janus counts nobody either. Janus may still count
 * the last one for a moment (it finishes a detach after answering it) or another instance's participants, so
 * it is asked again a few times, unawaited, until someone comes back here.
 */
async function closeWhenEmpty(state: JanusPlaneState, backend: JanusBackend, channelId: number): Promise<void> {
  const emptyHere = () => !state.channels.has(channelId) && !state.placed.has(channelId);
  const destroy = () => state.rooms.destroyIfUnused(backend, channelId, () => state.patches.holds(channelId));
  if (!(await destroy())) return;
  void (async () => {
    for (const wait of CLOSE_AGAIN_MS) {
      await sleep(wait, undefined, { ref: false });
      if (!emptyHere() || !(await destroy())) return;
    }
  })();
}

export class JanusChannelMedia implements ChannelMedia {
  readonly kind = 'server' as const;
  readonly channelId: number;
  readonly #state: JanusPlaneState;
  readonly #closed: () => void;
  /** This channel's participants on this instance, by socket (also in the state's channels while open). */
  readonly #here = new Map<string, Participant>();
  /** The links of those who left, while Janus lets them go. */
  readonly #leaving = new Set<Promise<void>>();

  constructor(state: JanusPlaneState, channelId: number, closed: () => void) {
    this.#state = state;
    this.channelId = channelId;
    this.#closed = closed;
    state.channels.set(channelId, this.#here);
  }

  async admit(participant: MediaParticipant): Promise<void> {
    const known = this.#here.get(participant.socketId);
    if (known) {
      known.mode = participant.mode;
      return;
    }
    const admitted: Participant = {
      ...participant,
      channelId: this.channelId,
      heard: participant.heard ?? false,
      queue: Promise.resolve(),
    };
    this.#here.set(participant.socketId, admitted);
    // A spec client moved here from the mesh: nobody offers, so the server does.
    if (participant.spec && participant.moved) scheduleSpecOffer(this.#state, admitted);
  }

  async remove(socketId: string): Promise<void> {
    const state = this.#state;
    const { channelId } = this;
    const participant = this.#here.get(socketId);
    if (!participant) return;
    this.#here.delete(socketId);
    clearTimeout(participant.reoffer);
    if (!everyone(state).some((other) => other.socketId === socketId)) state.allCalls.delete(socketId);
    const bridged = participant.bridge !== undefined;
    const left = serial(participant, async () => dropLinks(state, participant, true));
    this.#leaving.add(left);
    await left.finally(() => this.#leaving.delete(left));
    const backend = state.backends.byUrl(state.placed.get(channelId) ?? '');
    if (this.#here.size > 0) {
      // One who was in the mixer left: the mixer may go (if no spec client and no patch needs it).
      if (bridged && backend)
        await state.rooms.destroyBridgeIfUnused(backend, channelId, () => state.patches.holds(channelId));
      return;
    }
    // Whoever left just before is still being let go by Janus: it is not counted as staying. The last of
    // those who left together closes the channel, once (a newcomer since has a channel of its own).
    await Promise.allSettled([...this.#leaving]);
    if (this.#here.size > 0 || state.channels.get(channelId) !== this.#here) return;
    this.#forget();
    state.placed.delete(channelId);
    if (backend) await closeWhenEmpty(state, backend, channelId);
  }

  grantTalk(socketId: string): Promise<void> {
    return this.#setHeard(socketId, true);
  }

  revokeTalk(socketId: string): Promise<void> {
    return this.#setHeard(socketId, false);
  }

  async close(): Promise<void> {
    for (const participant of this.#here.values()) {
      clearTimeout(participant.reoffer);
      void dropLinks(this.#state, participant, true);
    }
    this.#here.clear();
    this.#forget();
  }

  participants(): MediaParticipant[] {
    return [...this.#here.values()].map(({ socketId, userId, name, mode, heard, spec, lost }) => ({
      socketId,
      userId,
      name,
      mode,
      heard,
      ...(spec ? { spec } : {}),
      ...(lost ? { lost } : {}),
    }));
  }

  /** A participant of another instance: the floor change goes to the instance that holds it. */
  async #setHeard(socketId: string, heard: boolean): Promise<void> {
    const participant = this.#here.get(socketId);
    if (!participant) return this.#state.options.relay(this.channelId, socketId, heard);
    await setHeard(this.#state, participant, heard);
  }

  #forget(): void {
    if (this.#state.channels.get(this.channelId) === this.#here) this.#state.channels.delete(this.channelId);
    this.#closed();
  }
}
