/**
 * Which pages have the dispatch console open (issue 49): `dispatch_console { open }` puts the socket in the
 * console room or takes it out. When waiting requests are recalled, real time asks that room, on every instance,
 * who is on the console; the others among the channels' dispatchers get a Web Push (push/notify.ts).
 */
import { z } from 'zod';
import { DISPATCH_CONSOLE_ROOM } from '../../sockets/room-names.ts';
import type { Concern, RealtimeContext } from '../context.ts';
import { parse } from '../socket-tasks.ts';

const DispatchConsole = z.object({ open: z.boolean() });

export const dispatchConsole: Concern = (socket, scope) => {
  scope.on('dispatch_console', async (payload) => {
    const { open } = parse(DispatchConsole, payload, 'dispatch_console');
    if (open) await socket.join(DISPATCH_CONSOLE_ROOM);
    else await socket.leave(DISPATCH_CONSOLE_ROOM);
  });
};

/** On a reminder: who has the console open now, then the domain event that pushes to the others. */
export function followDispatchReminders(ctx: RealtimeContext): () => void {
  return ctx.services.events.on('dispatchCallsChanged', ({ requests, reminded }) => {
    if (!reminded) return;
    void ctx.io
      .in(DISPATCH_CONSOLE_ROOM)
      .fetchSockets()
      .then(
        (sockets) => [...new Set(sockets.map((socket) => socket.data.userId))],
        // Another instance did not answer in time: the push goes to everyone but those known here.
        async () => [
          ...new Set((await ctx.io.in(DISPATCH_CONSOLE_ROOM).local.fetchSockets()).map((s) => s.data.userId)),
        ],
      )
      .then((onConsole) => ctx.services.events.emit('dispatchReminded', { requests, onConsole }))
      .catch((error) => ctx.log.warn({ err: error }, 'dispatch reminder push failed'));
  });
}
