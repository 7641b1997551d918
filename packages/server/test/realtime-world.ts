/**
 * The world of the real-time socket tests (realtime*.test.ts): a listening app, an administrator, Alice (map
 * access) and Bob, members of "Red Team", Carol, member of "Blue" only, and helpers to open sockets, join a
 * room the way the spec's clients do, and read presence rows and activities. `realtimeWorld` registers the
 * hooks that build it before each test and close its sockets and app after.
 */
import { afterEach, beforeEach } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import type { Config } from '../src/config/config.ts';
import type { Dialect } from '../src/db/open.ts';
import { type Account, createMember, signUpAdmin, startApp, type TestApp } from './harness.ts';
import { type ConnectOptions, connect, listen, type TestClient } from './realtime-harness.ts';

export class RealtimeWorld {
  app!: TestApp;
  url!: string;
  admin!: Account;
  alice!: Account;
  bob!: Account;
  carol!: Account;
  red!: ChannelSummary;
  blue!: ChannelSummary;
  private readonly clients: TestClient[] = [];

  async setUp(dialect: Dialect, config: Partial<Config> = {}): Promise<void> {
    this.app = await startApp(dialect, config);
    this.url = await listen(this.app);
    this.admin = await signUpAdmin(this.app);
    this.alice = await createMember(this.app, this.admin, { firstName: 'Alice', lastName: 'Martin', mapRight: true });
    this.bob = await createMember(this.app, this.admin, { firstName: 'Bob', lastName: 'Durand' });
    this.carol = await createMember(this.app, this.admin, { firstName: 'Carol', lastName: 'Petit' });
    this.red = await this.app.services.channels.create('Red Team');
    this.blue = await this.app.services.channels.create('Blue');
    await this.app.services.memberships.add(this.red.id, [this.alice.id, this.bob.id]);
    await this.app.services.memberships.add(this.blue.id, [this.carol.id]);
  }

  async tearDown(): Promise<void> {
    for (const client of this.clients.splice(0)) client.close();
    await this.app.close();
  }

  /** Closes the client after the test. */
  track(client: TestClient): TestClient {
    this.clients.push(client);
    return client;
  }

  /** A connected socket of the account (closed after the test). */
  async open(account: Account, options: ConnectOptions = {}): Promise<TestClient> {
    return this.track(await connect(this.url, account.token, options));
  }

  /** A socket in the channel's room, joined the spec's way (no mode), once its peer list came. */
  async joined(account: Account, channel: ChannelSummary, options: ConnectOptions = {}): Promise<TestClient> {
    const client = await this.open(account, options);
    client.socket.emit('join_room', { room: channel.rtcSession, name: 'ignored' });
    await client.next('all_users');
    return client;
  }

  db() {
    return this.app.services.db;
  }

  /** The socket's presence row (its first, for a socket in several channels). */
  presenceOf(socketId: string) {
    return this.db().selectFrom('user_sockets').selectAll().where('socket_id', '=', socketId).executeTakeFirst();
  }

  activitiesOf(userId: number, type: string) {
    return this.db()
      .selectFrom('activities')
      .selectAll()
      .where('user_id', '=', userId)
      .where('type', '=', type)
      .orderBy('id')
      .execute();
  }
}

/**
 * Builds the world before each test of the enclosing describe, and takes it down after; `config` (read before
 * each test, after the describe's own beforeEach hooks) sets the app's configuration.
 */
export function realtimeWorld(dialect: Dialect, config: () => Partial<Config> = () => ({})): RealtimeWorld {
  const world = new RealtimeWorld();
  beforeEach(() => world.setUp(dialect, config()));
  afterEach(() => world.tearDown());
  return world;
}
