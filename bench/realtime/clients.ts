/**
 * A worker thread holding a share of the benchmark's receiving clients. They speak the Socket.IO v4 wire
 * protocol over Node's built-in WebSocket directly: a full client library would spend more time per
 * message than the servers under test, and that cost would blur the comparison.
 *
 * In: {url, room, tokens}. Out: {type: 'ready'}, then {type: 'round', round, times} once every client of
 * this worker has received the round's messageResponse (times: absolute ms, comparable across threads);
 * asked {type: 'lastFrame'}, it answers when its clients last received anything.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

interface Input {
  url: string;
  room: string;
  tokens: string[];
}

const { url, room, tokens } = workerData as Input;
const port = parentPort;
if (!port) throw new Error('clients.ts runs as a worker thread');

const now = () => performance.timeOrigin + performance.now();
const MARKER = '42["messageResponse"';
const ROUND = /"textMsg":"bench-(\d+)"/;
const rounds = new Map<number, number[]>();
const sockets: WebSocket[] = [];
/** When the last frame of any kind arrived: the run waits for the setup traffic to stop before measuring. */
let lastFrameAt = now();

function received(round: number, at: number) {
  const times = rounds.get(round) ?? [];
  times.push(at);
  rounds.set(round, times);
  if (times.length === tokens.length) {
    rounds.delete(round);
    port?.postMessage({ type: 'round', round, times });
  }
}

function open(token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(
      `${url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket&token=${encodeURIComponent(token)}`,
    );
    sockets.push(ws);
    ws.onmessage = (event) => {
      const data = event.data as string;
      lastFrameAt = now();
      if (data.startsWith(MARKER)) {
        const at = now();
        const match = ROUND.exec(data);
        if (match) received(Number(match[1]), at);
      } else if (data === '2') {
        ws.send('3');
      } else if (data.startsWith('0{')) {
        ws.send('40');
      } else if (data.startsWith('40')) {
        ws.send(`42${JSON.stringify(['join_room', { room, name: '' }])}`);
      } else if (data.startsWith('42["all_users"')) {
        resolve();
      } else if (data.startsWith('44')) {
        reject(new Error(`connection refused: ${data}`));
      }
    };
    ws.onerror = () => reject(new Error('websocket error'));
  });
}

// A few connections at a time, as a crowd of phones would arrive.
for (let i = 0; i < tokens.length; i += 25) await Promise.all(tokens.slice(i, i + 25).map(open));
port.postMessage({ type: 'ready' });
port.on('message', (message: { type: string }) => {
  if (message.type === 'lastFrame') port.postMessage({ type: 'lastFrame', at: lastFrameAt });
  if (message.type === 'close') {
    for (const ws of sockets) ws.close();
    port.close();
  }
});
