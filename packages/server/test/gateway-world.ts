/**
 * A deployment with an administrator and two channels, alpha and bravo, for the gateways' routes and storage
 * (gateways.test.ts, gateway-simultaneous-calls.test.ts), with the calls they make of it.
 */
import { afterEach, beforeEach } from 'vitest';
import type { Dialect } from '../src/db/open.ts';
import { type Account, signUpAdmin, startApp, type TestApp } from './harness.ts';

const rowOf = (app: TestApp, id: number) =>
  app.services.db.selectFrom('gateways').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export interface GatewayWorld {
  app: TestApp;
  admin: Account;
  alpha: number;
  bravo: number;
  /** createGateway as the administrator: Radio Quai, radio-quai, alpha, with `body` over them. */
  create(body?: object): Promise<{ status: number; body: any }>;
  /** The gateway's row as stored. */
  gatewayRow(id: number): ReturnType<typeof rowOf>;
}

export function gatewayWorld(dialect: Dialect): GatewayWorld {
  const world = {} as GatewayWorld;
  world.create = (body = {}) =>
    world.app.call(
      '/user/api/createGateway',
      { name: 'Radio Quai', login: 'radio-quai', channelIds: [world.alpha], ...body },
      world.admin.token,
    );
  world.gatewayRow = (id) => rowOf(world.app, id);
  beforeEach(async () => {
    world.app = await startApp(dialect);
    world.admin = await signUpAdmin(world.app);
    const channel = async (channelName: string) =>
      (await world.app.call('/user/api/createChannel', { channelName }, world.admin.token)).body.res.id as number;
    world.alpha = await channel('alpha');
    world.bravo = await channel('bravo');
  });
  afterEach(async () => {
    await world.app.close();
  });
  return world;
}
