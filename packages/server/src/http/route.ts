/**
 * Declares one call of the contract: its path, body schema and access level come from packages/protocol,
 * the token and role are checked before the handler runs, and a bad body answers 400 naming the field.
 */
import type { Access, BodyOf, Call, ResponseOf } from '@talkgroup/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { SessionStore, TokenOwner } from '../auth/sessions.ts';
import { badRequest, describeZodError, forbidden, unauthorized } from './errors.ts';

export type { Access };

export interface RouteContext<Body, Auth> {
  body: Body;
  auth: Auth;
  req: FastifyRequest;
  reply: FastifyReply;
}

type AuthFor<A extends Access> = A extends 'public' ? TokenOwner | undefined : TokenOwner;

export function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers['x-access-token'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}

/** The guard: public needs no token, admin an administrator's; the finer levels are checked by the handler. */
export async function authenticate(sessions: SessionStore, req: FastifyRequest, access: Access) {
  const token = tokenOf(req);
  const owner = token ? await sessions.resolve(token) : undefined;
  if (access === 'public') return owner;
  if (!owner) throw unauthorized(token ? 'Your session has expired or was revoked: sign in again.' : undefined);
  if (access === 'admin' && owner.role !== 'admin') throw forbidden();
  return owner;
}

/** A member may act on itself; an administrator on anyone. */
export function requireSelfOrAdmin(auth: TokenOwner, userId: number): void {
  if (auth.role !== 'admin' && auth.userId !== userId) throw forbidden('You may only do this for your own account.');
}

export function parseBody<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw ?? {});
  if (!result.success) throw badRequest(describeZodError(result.error));
  return result.data;
}

export function defineRoutes(app: FastifyInstance, sessions: SessionStore) {
  return function route<C extends Call<z.ZodType, unknown, A>, A extends Access>(
    call: C & { access: A },
    handler: (
      ctx: RouteContext<C extends Call<infer S, unknown> ? z.output<S> : never, AuthFor<A>>,
    ) => Promise<ResponseOf<C>>,
  ): void {
    app.post(call.path, async (req, reply) => {
      const auth = (await authenticate(sessions, req, call.access)) as AuthFor<A>;
      const body = parseBody(call.body, req.body) as C extends Call<infer S, unknown> ? z.output<S> : never;
      return handler({ body, auth, req, reply });
    });
  };
}

export type RouteFn = ReturnType<typeof defineRoutes>;
export type { BodyOf };
