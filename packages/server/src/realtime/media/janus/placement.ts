/**
 * Which Janus carries a channel: the same for every app instance (assignments.ts), found again when the one it
 * was on goes down; participants still linked to another Janus start over on the channel's.
 */
import { candidateFor } from '../../../janus/assignments.ts';
import type { JanusBackend } from '../../../janus/backends.ts';
import { JanusPluginError, JanusUnavailableError } from '../../../janus/connection.ts';
import { NO_SUCH_MOUNTPOINT, NO_SUCH_ROOM, NO_SUCH_SFU_ROOM } from '../../../janus/room-requests.ts';
import { linksOf } from './participants.ts';
import type { JanusPlaneState } from './plane-state.ts';

/**
 * The channel's Janus, agreed with the other instances; participants still linked elsewhere start over (but
 * `offering`, whose new link is being made), and (unless `quiet`: told by another instance) the other
 * instances are told it moved.
 */
export async function backendFor(
  state: JanusPlaneState,
  channelId: number,
  quiet = false,
  offering?: string,
): Promise<JanusBackend> {
  const { backends, store, placed } = state;
  const alive = backends.alive().map((backend) => backend.url);
  const candidate = candidateFor(channelId, alive);
  if (!candidate) throw new JanusUnavailableError('No media server is reachable now.');
  const url = await store.assign(channelId, candidate, alive);
  const backend = backends.byUrl(url) ?? backends.alive()[0];
  const before = placed.get(channelId);
  placed.set(channelId, backend.url);
  if (before && before !== backend.url) {
    if (!quiet) state.options.moved(channelId);
    relink(state, channelId, backend, offering);
  }
  return backend;
}

/** Participants linked to another Janus than the channel's: they offer again. */
function relink(state: JanusPlaneState, channelId: number, backend: JanusBackend, offering?: string): void {
  for (const participant of state.channels.get(channelId)?.values() ?? [])
    if (participant.socketId !== offering && linksOf(participant).some((link) => link.backend !== backend))
      state.startOver(participant, 'The channel moved to another media server.');
}

/**
 * Runs `work` on the channel's Janus; tries once more when another instance destroyed the room (or mountpoint)
 * this one thought was there.
 */
export async function withRoom<T>(
  state: JanusPlaneState,
  channelId: number,
  socketId: string,
  work: (backend: JanusBackend) => Promise<T>,
): Promise<T> {
  const backend = await backendFor(state, channelId, false, socketId);
  try {
    return await work(backend);
  } catch (error) {
    const gone =
      error instanceof JanusPluginError && [NO_SUCH_ROOM, NO_SUCH_SFU_ROOM, NO_SUCH_MOUNTPOINT].includes(error.code);
    if (!gone) throw error;
    state.rooms.forget(backend, channelId);
    return work(backend);
  }
}
