/**
 * A worker thread holding a share of the join storm's clients, speaking the Socket.IO v4 wire protocol over
 * Node's built-in WebSocket (a client library would cost more than the servers under test).
 *
 * In: {url, room, tokens, total, once}. On {type: 'go'}: every client connects and joins at once. Out:
 * {type: 'known', at} when each of its clients knows every other client of the storm (its all_users plus the
 * `user joined` that came after), and on {type: 'stats'}: {lastFrameAt, frames, bytes, byKind} (frames by event
 * name, or by packet type for other packets).
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

interface Input {
  url: string;
  room: string;
  tokens: string[];
  total: number;
  once: boolean;
}

const { url, room, tokens, total, once } = workerData as Input;
const port = parentPort;
if (!port) throw new Error('clients.ts runs as a worker thread');

const now = () => performance.timeOrigin + performance.now();
const sockets: WebSocket[] = [];
let lastFrameAt = now();
let frames = 0;
let bytes = 0;
let complete = 0;
/** Frames by kind: an event's name, else the packet type (`2` ping, `0` open, `40` connect, ...). */
const byKind: Record<string, number> = {};

function open(token: string): void {
  const query = `EIO=4&transport=websocket&token=${encodeURIComponent(token)}${once ? '&pushes=once' : ''}`;
  const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/socket.io/?${query}`);
  sockets.push(ws);
  /** The peers this client knows (ids): a `user joined` may also be in a later all_users. */
  const peers = new Set<string>();
  let done = false;
  const learned = () => {
    if (done || peers.size < total - 1) return;
    done = true;
    complete += 1;
    if (complete === tokens.length) port?.postMessage({ type: 'known', at: now() });
  };
  ws.onmessage = (event) => {
    const data = event.data as string;
    lastFrameAt = now();
    frames += 1;
    bytes += data.length;
    const kind = data.startsWith('42[')
      ? (/^42\["([^"]*)"/.exec(data)?.[1] ?? '42')
      : data.slice(0, 2).replace(/\{.*/, '');
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    if (data === '2') ws.send('3');
    else if (data.startsWith('0{')) ws.send('40');
    else if (data.startsWith('40')) ws.send(`42${JSON.stringify(['join_room', { room, name: '' }])}`);
    else if (data.startsWith('42["all_users"')) {
      for (const peer of (JSON.parse(data.slice(2)) as [string, Array<{ id: string }>])[1]) peers.add(peer.id);
      learned();
    } else if (data.startsWith('42["user joined"')) {
      peers.add((JSON.parse(data.slice(2)) as [string, { id: string }])[1].id);
      learned();
    } else if (data.startsWith('44')) throw new Error(`connection refused: ${data}`);
  };
  ws.onerror = () => {
    throw new Error('websocket error');
  };
}

port.on('message', (message: { type: string }) => {
  if (message.type === 'go') for (const token of tokens) open(token);
  if (message.type === 'stats') port.postMessage({ type: 'stats', lastFrameAt, frames, bytes, byKind });
  if (message.type === 'close') {
    for (const ws of sockets) ws.close();
    port.close();
  }
});
port.postMessage({ type: 'ready' });
