/**
 * A relay thread (relay-threads.ts starts it): the media of some of the gateways' calls (relay-media.ts), their
 * sockets, packet checks, voice activity, DTMF and G.711/Opus codec (opusscript's WebAssembly module, one per
 * thread), so that 50 calls' packets never wait behind the main thread's work, nor it behind theirs.
 *
 * The main thread asks (`RelayRequest`: open, connect, busy tone, close); this thread answers and tells it the few
 * things it must know (`RelayEvent`): a voice press or release, a key, the channel's sound beginning, and each
 * call's counts and faults every tick, only when they changed.
 */
import { parentPort } from 'node:worker_threads';
import type { RtpAddress } from '../janus/room-requests.ts';
import { CallMedia, type Counts, type MediaOptions, PortsExhausted } from './relay-media.ts';

export type RelayRequest =
  | { type: 'open'; call: number; request: number; options: MediaOptions }
  | { type: 'openTowards'; call: number; request: number; host: string }
  | { type: 'connectJanus'; call: number; address: RtpAddress }
  | { type: 'busy' | 'resetVoice' | 'close'; call: number };

/** A call's counts since the last tick, with the faults (the first error and how many) in that time. */
export interface CallTally {
  call: number;
  counts: Counts;
  faults?: { error: Error; count: number };
}

export type RelayEvent =
  | { type: 'answer'; call: number; request: number; port?: number; address?: RtpAddress }
  | { type: 'refused'; call: number; request: number; error: Error; exhausted: boolean }
  | { type: 'voice'; call: number; change: 'press' | 'release' }
  | { type: 'key'; call: number; key: string }
  | { type: 'sound'; call: number; at: number }
  | { type: 'tally'; calls: CallTally[] };

/** How often the voice activity's hang time is looked at without packets, and counts go to the main thread. */
const TICK_MS = 100;

interface Call {
  media: CallMedia;
  /** The sum of its counts at the last tally: a call whose packets did not move is not told again. */
  told: number;
  faults?: { error: Error; count: number };
}

const port = parentPort;
if (!port) throw new Error('relay-thread.ts runs in a worker thread');
const post = (event: RelayEvent) => port.postMessage(event);
const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));
const calls = new Map<number, Call>();

function fault(call: number, error: unknown): void {
  const entry = calls.get(call);
  if (!entry) return;
  if (entry.faults) entry.faults.count++;
  else entry.faults = { error: asError(error), count: 1 };
}

function open(call: number, options: MediaOptions): CallMedia {
  const media = new CallMedia(options, {
    voice: (change) => post({ type: 'voice', call, change }),
    key: (key) => post({ type: 'key', call, key }),
    sound: (at) => post({ type: 'sound', call, at }),
    fault: (error) => fault(call, error),
  });
  calls.set(call, { media, told: 0 });
  return media;
}

/** An open or openTowards: its answer, or why not (a port range used up is said as such: 503 on the main thread). */
async function answer(
  call: number,
  request: number,
  work: () => Promise<{ port?: number; address?: RtpAddress }>,
): Promise<void> {
  try {
    post({ type: 'answer', call, request, ...(await work()) });
  } catch (error) {
    post({ type: 'refused', call, request, error: asError(error), exhausted: error instanceof PortsExhausted });
  }
}

port.on('message', (message: RelayRequest) => {
  const { call } = message;
  if (message.type === 'open') {
    void answer(call, message.request, async () => ({ port: await open(call, message.options).open() }));
    return;
  }
  const media = calls.get(call)?.media;
  if (!media) return;
  try {
    if (message.type === 'openTowards')
      void answer(call, message.request, async () => ({ address: await media.openTowards(message.host) }));
    else if (message.type === 'connectJanus') media.connectJanus(message.address);
    else if (message.type === 'busy') media.busy();
    else if (message.type === 'resetVoice') media.resetVoice();
    else if (message.type === 'close') {
      calls.delete(call);
      media.close();
    }
  } catch (error) {
    fault(call, error);
  }
});

setInterval(() => {
  if (calls.size === 0) return;
  const now = performance.now();
  const tallies: CallTally[] = [];
  for (const [call, entry] of calls) {
    entry.media.tick(now);
    const { counts } = entry.media;
    const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
    if (total === entry.told && !entry.faults) continue;
    entry.told = total;
    tallies.push({ call, counts: { ...counts }, ...(entry.faults ? { faults: entry.faults } : {}) });
    entry.faults = undefined;
  }
  if (tallies.length > 0) post({ type: 'tally', calls: tallies });
}, TICK_MS);
