/**
 * The baseline of bench/join-storm: a bare Socket.IO server that does what a join needs on the wire and
 * nothing else: the joiner gets the room's peers (all_users), the others one `user joined`. No token, no
 * database, no presence. Prints {port, room, channelId, tokens} on stdout like bench/realtime/server.ts.
 *
 *   node bench/join-storm/bare-server.ts <clients>
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const clients = Number(process.argv[2]);
const http = createServer();
const io = new Server(http, { serveClient: false });
let named = 0;
io.on('connection', (socket) => {
  named += 1;
  const name = `Bench ${named}`;
  socket.on('join_room', async (payload: { room: string }) => {
    socket.join(payload.room);
    const peers = (await io.in(payload.room).fetchSockets())
      .filter((other) => other.id !== socket.id)
      .map((other) => ({ id: other.id, name, userId: 0 }));
    socket.emit('all_users', peers);
    socket.to(payload.room).emit('user joined', { id: socket.id, name, userId: 0 });
  });
});
await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
const tokens = Array.from({ length: clients }, () => 'any');
process.stdout.write(
  `${JSON.stringify({ port: (http.address() as AddressInfo).port, room: 'Bench', channelId: 1, tokens })}\n`,
);
process.on('SIGTERM', () => {
  io.close();
  process.exit(0);
});
