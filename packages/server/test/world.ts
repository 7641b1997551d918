/**
 * The dispatcher-and-member world many server tests share: an app on a port, its administrator, the people a test
 * names (dispatchers, members, further administrators), its channels with their members, and the sockets the test
 * opens, closed after it. People and channels are made in the order the spec gives them (their ids follow it);
 * members through the Add User dialog (createMember), the other roles with `signUpUser { role }`; a channel
 * through the channel store, or `overHttp` through createChannel (audited, as the administrator's page makes it).
 *
 * `world` registers the hooks that build the world before each test of the describe that calls it (or
 * when the test calls `setUp`, with `setUpInTest`) and take it down after; `cast` makes only the people and the
 * channels, on an app the test started itself (a cluster's instance, a restarted app).
 */
import type { Role } from '@talkgroup/protocol';
import { afterEach, beforeEach } from 'vitest';
import type { ChannelSummary } from '../src/channels/store.ts';
import type { Config } from '../src/config/config.ts';
import type { Dialect } from '../src/db/open.ts';
import { type Account, createMember, signUpAdmin, startApp, type TestApp, testStorage } from './harness.ts';
import { type ConnectOptions, connect, listen, type TestClient } from './realtime-harness.ts';
import { createWithRole } from './role-fixtures.ts';

type MemberFields = NonNullable<Parameters<typeof createMember>[2]>;
type RoleFields = NonNullable<Parameters<typeof createWithRole>[3]>;

/** One person of the world: no names, the helpers' own (a number makes each distinct). */
export type Person = ({ role: 'member' } & MemberFields) | ({ role: Exclude<Role, 'member'> } & RoleFields);

export interface ChannelPlan<P extends string> {
  name: string;
  /** Added in this order, once every channel is made. */
  members: readonly NoInfer<P>[];
  /** Members who only listen there (`can_talk` off). */
  listenOnly?: readonly NoInfer<P>[];
  /** Made with createChannel as the administrator, rather than straight in the channel store. */
  overHttp?: boolean;
}

/** What a channel of the world holds whether made in the store (its summary) or with createChannel (the channel). */
export type WorldChannel = Pick<
  ChannelSummary,
  | 'id'
  | 'name'
  | 'rtcSession'
  | 'createdAt'
  | 'floorControl'
  | 'recording'
  | 'voiceMode'
  | 'floorQueue'
  | 'preemption'
  | 'videoAudience'
  | 'areaGeofenceId'
>;

export interface CastSpec<P extends string, C extends string> {
  people: Record<P, Person>;
  channels?: Record<C, ChannelPlan<P>>;
}

/** The administrator, each person by its name in the spec, each channel by its own. */
export type Cast<P extends string, C extends string> = { admin: Account } & Record<P, Account> &
  Record<C, WorldChannel>;

export interface WorldSpec<P extends string, C extends string> extends CastSpec<P, C> {
  /** The app's configuration (startApp's overrides). */
  config?: Partial<Config>;
  /** The test builds the world itself, with `setUp`, when its configuration is the test's own. */
  setUpInTest?: boolean;
}

export interface WorldBase {
  app: TestApp;
  url: string;
  /** Builds the world (done before each test unless `setUpInTest`); `config` goes over the spec's. */
  setUp(config?: Partial<Config>): Promise<void>;
  /** Closes the sockets opened through the world, then the app (done after each test). */
  tearDown(): Promise<void>;
  /** Closes the sockets and the app, and starts a new one on the same storage: the people and channels stay. */
  restart(): Promise<void>;
  /** Closes the client (a socket, or anything that holds one) after the test, or at a restart. */
  track<T extends { close(): void }>(client: T): T;
  /** A connected socket of the account (closed after the test). */
  open(account: Account, options?: ConnectOptions): Promise<TestClient>;
  /** A socket in the room (`join_room { room }`), once its peer list came. */
  joined(account: Account, room: string, options?: ConnectOptions): Promise<TestClient>;
}

export type World<P extends string, C extends string> = WorldBase & Cast<P, C>;

const BASE_NAMES = new Set(['admin', 'app', 'url', 'setUp', 'tearDown', 'restart', 'track', 'open', 'joined']);

/** A spec kept aside, for a file that builds it both in a world and with `cast`: its names stay typed. */
export function defineCast<P extends string, C extends string = never>(spec: CastSpec<P, C>): CastSpec<P, C> {
  return spec;
}

/** The spec's people and channels on this app, its administrator signed up first. */
export async function cast<P extends string, C extends string = never>(
  app: TestApp,
  spec: CastSpec<P, C>,
): Promise<Cast<P, C>> {
  const admin = await signUpAdmin(app);
  const made: Record<string, Account | WorldChannel> = { admin };
  for (const [name, person] of Object.entries<Person>(spec.people)) {
    if (BASE_NAMES.has(name)) throw new Error(`"${name}" is the world's own: name the person otherwise`);
    const { role, ...fields } = person;
    made[name] =
      role === 'member' ? await createMember(app, admin, fields) : await createWithRole(app, admin, role, fields);
  }
  const channels = Object.entries<ChannelPlan<P>>(spec.channels ?? ({} as Record<C, ChannelPlan<P>>));
  for (const [name, plan] of channels) {
    if (name in made || BASE_NAMES.has(name)) throw new Error(`"${name}" is taken: name the channel otherwise`);
    made[name] = await createChannel(app, admin, plan);
  }
  for (const [name, plan] of channels) {
    if (plan.members.length === 0) continue;
    const ids = plan.members.map((person) => (made[person] as Account).id);
    const channelId = (made[name] as WorldChannel).id;
    await app.services.memberships.add(channelId, ids);
    for (const person of plan.listenOnly ?? [])
      await app.services.memberships.setCanTalk(channelId, (made[person] as Account).id, false);
  }
  return made as Cast<P, C>;
}

async function createChannel(app: TestApp, admin: Account, plan: ChannelPlan<string>): Promise<WorldChannel> {
  if (!plan.overHttp) return app.services.channels.create(plan.name);
  const created = await app.call('/user/api/createChannel', { channelName: plan.name }, admin.token);
  if (created.status !== 200) throw new Error(`channel creation failed: ${JSON.stringify(created.body)}`);
  return created.body.res;
}

/**
 * The world of the describe that calls it: built before each of its tests (after the describe's own beforeEach
 * hooks registered earlier), or by the test's `setUp` with `setUpInTest`; taken down after each.
 */
export function world<P extends string, C extends string = never>(
  dialect: Dialect,
  spec: WorldSpec<P, C>,
): World<P, C> {
  const clients: Array<{ close(): void }> = [];
  let app: TestApp | undefined;
  let storage: ReturnType<typeof testStorage>;
  let overrides: Partial<Config> = {};
  const start = async () => {
    app = await startApp(dialect, overrides, storage);
    Object.assign(built, { app, url: await listen(app) });
    return app;
  };
  const base: WorldBase = {
    app: undefined as unknown as TestApp,
    url: '',
    async setUp(config = {}) {
      storage = testStorage(dialect);
      overrides = { ...spec.config, ...config };
      Object.assign(built, await cast(await start(), spec));
    },
    async tearDown() {
      for (const client of clients.splice(0)) client.close();
      await app?.close();
      app = undefined;
    },
    async restart() {
      for (const client of clients.splice(0)) client.close();
      await app?.fastify.close();
      await start();
    },
    track(client) {
      clients.push(client);
      return client;
    },
    async open(account, options = {}) {
      return built.track(await connect(built.url, account.token, options));
    },
    async joined(account, room, options = {}) {
      const client = await built.open(account, options);
      client.socket.emit('join_room', { room });
      await client.next('all_users');
      return client;
    },
  };
  const built = base as World<P, C>;
  if (!spec.setUpInTest) beforeEach(() => built.setUp());
  afterEach(() => built.tearDown());
  return built;
}
