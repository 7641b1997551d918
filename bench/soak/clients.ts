/**
 * A worker thread holding a share of the soak run's sockets (run.ts). They speak Socket.IO v4 over Node's
 * built-in WebSocket (a full client library for thousands of sockets would cost more than the server it
 * measures). Each socket joins its channel's room to talk, then, at a phone team's pace, each on its own timer:
 * sends a chat message, reports a position, joins another channel to listen for a while and leaves it; the
 * first socket of each room presses to talk now and then. A socket that is dropped comes back by itself.
 *
 * In: {url, first, tokens, rooms, channelIds, roomSize, periods}. Out: {type: 'ready'}; asked {type: 'stats'},
 * the counters so far; {type: 'stop'} stops the timers (the sockets stay, to receive what is in flight).
 */
import { parentPort, workerData } from 'node:worker_threads';

export interface Periods {
  chatMs: number;
  positionMs: number;
  presenceMs: number;
  floorMs: number;
}

export interface WorkerStats {
  connected: number;
  disconnects: number;
  errors: number;
  errorSamples: string[];
  /** Chat messages sent per room index. */
  sentByRoom: Record<number, number>;
  received: number;
  presses: number;
  grants: number;
  refusals: number;
  positions: number;
  presenceChanges: number;
}

interface Input {
  url: string;
  first: number;
  tokens: string[];
  rooms: string[];
  channelIds: number[];
  roomSize: number;
  periods: Periods;
}

const { url, first, tokens, rooms, channelIds, roomSize, periods } = workerData as Input;
const port = parentPort;
if (!port) throw new Error('clients.ts runs as a worker thread');

const ACK_TIMEOUT_MS = 15_000;
const stats: WorkerStats = {
  connected: 0,
  disconnects: 0,
  errors: 0,
  errorSamples: [],
  sentByRoom: {},
  received: 0,
  presses: 0,
  grants: 0,
  refusals: 0,
  positions: 0,
  presenceChanges: 0,
};
let running = true;
const timers = new Set<NodeJS.Timeout>();

function error(what: string) {
  stats.errors += 1;
  if (stats.errorSamples.length < 10) stats.errorSamples.push(what);
}

/** Runs `work` every `period` (the first time after a random share of it, so that sockets spread out). */
function every(period: number, work: () => void) {
  const tick = (delay: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!running) return;
      work();
      tick(period * (0.8 + Math.random() * 0.4));
    }, delay);
    timers.add(timer);
  };
  tick(Math.random() * period);
}

const CHAT = /^42\["(?:messageResponse)",\{.*"channelId":(\d+).*"textMsg":"soak-/;

class Client {
  ws?: WebSocket;
  up = false;
  acks = new Map<number, { resolve: (value: unknown) => void; timer: NodeJS.Timeout }>();
  nextAck = 0;
  chatSeq = 0;
  readonly room: string;
  readonly channelId: number;
  readonly roomIndex: number;
  private joined?: () => void;

  readonly index: number;
  readonly token: string;

  constructor(index: number, token: string) {
    this.index = index;
    this.token = token;
    this.roomIndex = Math.floor(index / roomSize);
    this.room = rooms[this.roomIndex];
    this.channelId = channelIds[this.roomIndex];
  }

  open(): Promise<void> {
    return new Promise((resolve) => {
      this.joined = resolve;
      const ws = new WebSocket(
        `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket&token=${encodeURIComponent(this.token)}`,
      );
      this.ws = ws;
      ws.onmessage = (event) => this.frame(event.data as string);
      ws.onclose = () => {
        if (this.up) {
          this.up = false;
          stats.connected -= 1;
          stats.disconnects += 1;
        }
        for (const { resolve: answer, timer } of this.acks.values()) {
          clearTimeout(timer);
          answer({ dropped: true });
        }
        this.acks.clear();
        // Back by itself, as a phone's client would be.
        if (running) setTimeout(() => void this.open(), 1000);
      };
      ws.onerror = () => {};
    });
  }

  private frame(data: string) {
    if (data === '2') return this.ws?.send('3');
    if (data.startsWith('0{')) return this.ws?.send('40');
    if (data.startsWith('40')) {
      void this.emitWithAck('join_room', { room: this.room, name: '', mode: 'talk' }).then((answer) => {
        if ((answer as { success?: boolean }).success !== true) error(`join_room: ${JSON.stringify(answer)}`);
        if (!this.up) {
          this.up = true;
          stats.connected += 1;
        }
        this.joined?.();
      });
      return;
    }
    if (data.startsWith('44')) return error(`connection refused: ${data.slice(0, 200)}`);
    if (data.startsWith('43')) {
      const open = data.indexOf('[');
      const id = Number(data.slice(2, open));
      const pending = this.acks.get(id);
      if (!pending) return;
      this.acks.delete(id);
      clearTimeout(pending.timer);
      pending.resolve((JSON.parse(data.slice(open)) as unknown[])[0]);
      return;
    }
    const chat = CHAT.exec(data);
    if (chat && Number(chat[1]) === this.channelId) stats.received += 1;
  }

  emit(event: string, payload: unknown) {
    if (this.up) this.ws?.send(`42${JSON.stringify([event, payload])}`);
  }

  emitWithAck(event: string, payload: unknown): Promise<unknown> {
    const id = this.nextAck++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.acks.delete(id);
        error(`${event}: no acknowledgement within ${ACK_TIMEOUT_MS / 1000} s`);
        resolve({ timedOut: true });
      }, ACK_TIMEOUT_MS);
      this.acks.set(id, { resolve, timer });
      this.ws?.send(`42${id}${JSON.stringify([event, payload])}`);
    });
  }

  start() {
    every(periods.chatMs, () => {
      if (!this.up) return;
      this.chatSeq += 1;
      stats.sentByRoom[this.roomIndex] = (stats.sentByRoom[this.roomIndex] ?? 0) + 1;
      this.emit('message', { channelId: this.channelId, message: `soak-${this.index}-${this.chatSeq}` });
    });
    every(periods.positionMs, () => {
      if (!this.up) return;
      stats.positions += 1;
      this.emit('onLocationChanged', {
        lat: 48.85 + (this.index % 100) / 1000 + Math.random() / 10_000,
        lng: 2.35 + Math.floor(this.index / 100) / 1000 + Math.random() / 10_000,
        accuracy: 10,
      });
    });
    every(periods.presenceMs, () => {
      if (!this.up || rooms.length < 2) return;
      // The member is also in the three channels before its own (server.ts).
      const other = rooms[(this.roomIndex - 1 + rooms.length) % rooms.length];
      stats.presenceChanges += 1;
      void this.emitWithAck('join_room', { room: other, name: '', mode: 'listen' }).then((answer) => {
        if ((answer as { success?: boolean }).success !== true && !(answer as { dropped?: boolean }).dropped)
          error(`join_room listen: ${JSON.stringify(answer)}`);
        const timer = setTimeout(() => {
          timers.delete(timer);
          this.emit('leave_room', { room: other });
        }, 30_000);
        timers.add(timer);
      });
    });
    if (this.index % roomSize === 0)
      every(periods.floorMs, () => {
        if (!this.up) return;
        stats.presses += 1;
        void this.emitWithAck('floor_request', { room: this.room }).then((answer) => {
          const granted = (answer as { granted?: boolean }).granted;
          if (granted === true) stats.grants += 1;
          else if (granted === false) stats.refusals += 1;
          const timer = setTimeout(() => {
            timers.delete(timer);
            this.emit('floor_release', { room: this.room });
          }, 2000);
          timers.add(timer);
        });
      });
  }
}

const clients = tokens.map((token, k) => new Client(first + k, token));
// A few connections at a time, as a crowd of phones would arrive.
for (let i = 0; i < clients.length; i += 25) await Promise.all(clients.slice(i, i + 25).map((client) => client.open()));
for (const client of clients) client.start();
port.postMessage({ type: 'ready' });
port.on('message', (message: { type: string }) => {
  if (message.type === 'stats') port.postMessage({ type: 'stats', stats });
  if (message.type === 'stop') {
    running = false;
    for (const timer of timers) clearTimeout(timer);
    timers.clear();
    port.postMessage({ type: 'stopped' });
  }
  if (message.type === 'close') {
    running = false;
    for (const client of clients) client.ws?.close();
    port.close();
  }
});
