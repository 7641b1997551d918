/**
 * A tile's floor queue (issue 59): who waits to talk on the channel, first first, each with a remove button
 * named with the person ("Retirer {name} de la file"): the console is a dispatcher's or an administrator's,
 * who may take anyone out of a channel's queue.
 */
import type { TalkgroupSocket } from '../../api/socket.ts';
import { FloorQueueList, useFloorQueue } from '../../engines/voice/index.ts';

export function TileFloorQueue({ socket, room }: { socket: TalkgroupSocket | null; room: string }) {
  const { queue, remove } = useFloorQueue(socket, room);
  return <FloorQueueList queue={queue} onRemove={remove} dense />;
}
