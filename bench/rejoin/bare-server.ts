/** The baseline of bench/rejoin: a bare Socket.IO server on PORT that answers join_room with all_users. */
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const port = Number(process.argv[2]);
const http = createServer((_req, res) => res.end('ok'));
const io = new Server(http, { serveClient: false });
io.on('connection', (socket) => {
  socket.on('join_room', (payload: { room: string }) => {
    socket.join(payload.room);
    socket.emit('all_users', []);
  });
});
http.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  io.engine.close();
  http.close(() => process.exit(0));
});
