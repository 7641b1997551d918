/**
 * Telling the running instances from another process (`npm run admin`) that users' rights or sessions changed
 * in the database: with REDIS_URL, the same word the instances say to each other (`revalidateRooms`, through
 * the Socket.IO Redis adapter), so their open sockets follow at once (room-guard.ts: rooms, role, and a
 * session that is gone ends its sockets). Without Redis there is no way to them: each instance's periodic
 * check finds the change within `rightsRecheckMs`.
 */
import type { Config } from '../config/config.ts';
import type { Io } from './io.ts';

/** Whether the instances were told (false: no REDIS_URL, they will see it at their next periodic check). */
export async function tellInstances(
  config: Pick<Config, 'redisUrl' | 'redisKeyPrefix'>,
  userIds: number[],
): Promise<boolean> {
  if (!config.redisUrl) return false;
  const [{ Server }, { createAdapter }, { createClient }] = await Promise.all([
    import('socket.io'),
    import('@socket.io/redis-adapter'),
    import('redis'),
  ]);
  // No retries: an unreachable Redis is said at once, and the periodic check still comes.
  const pub = createClient({ url: config.redisUrl, socket: { reconnectStrategy: false, connectTimeout: 5000 } });
  const sub = pub.duplicate();
  pub.on('error', () => {});
  sub.on('error', () => {});
  try {
    await Promise.all([pub.connect(), sub.connect()]);
  } catch (error) {
    for (const client of [pub, sub]) if (client.isOpen) client.destroy();
    throw error;
  }
  try {
    // A server of no HTTP server: only its adapter is used, to publish on the deployment's channel.
    const io: Io = new Server();
    io.adapter(createAdapter(pub, sub, { key: `${config.redisKeyPrefix}socket.io` }));
    io.serverSideEmit('revalidateRooms', userIds);
    await io.of('/').adapter.close();
  } finally {
    // Closed gracefully: the publish above is sent first.
    await Promise.allSettled([pub.close(), sub.close()]);
  }
  return true;
}
