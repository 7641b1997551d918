/**
 * The baseline of bench/floor-grant: a bare Socket.IO server on PORT that grants every floor_request at once
 * (an acknowledgement) and tells the room (floor_taken), with no token, store or bookkeeping.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const port = Number(process.argv[2]);
const http = createServer((_req, res) => res.end('ok'));
const io = new Server(http, { serveClient: false });
io.on('connection', (socket) => {
  let room = '';
  socket.on('join_room', (payload: { room: string }) => {
    room = payload.room;
    socket.join(room);
    socket.emit('all_users', []);
  });
  socket.on('floor_request', (_payload: unknown, ack: (answer: { granted: boolean }) => void) => {
    ack({ granted: true });
    io.to(room).emit('floor_taken', { room, userId: 0, name: '', since: new Date().toISOString() });
  });
  socket.on('floor_release', () => {
    io.to(room).emit('floor_idle', { room });
  });
});
http.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  io.engine.close();
  http.close(() => process.exit(0));
});
