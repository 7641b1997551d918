/**
 * Declares one call of the contract: its path, access level, body schema and answer schema come from
 * packages/protocol. The token and role are checked before the body (so a caller without a token learns
 * nothing about the body), a bad body answers 400 naming the field (http/errors.ts), and the answer is
 * serialised by its schema through fastify-type-provider-zod, so a field the protocol does not declare never
 * leaves the server.
 */

import type { Access, BodyOf, Call, Capability, ResponseOf, Role } from '@talkgroup/protocol';
import * as protocol from '@talkgroup/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { describeZodError, forbidden, invalidInput, unauthorized } from './errors.ts';

export type { Access };

/** Who a valid token stands for: its user, the user's role, and its session (auth/sessions.ts). */
export interface TokenOwner {
  userId: number;
  role: Role;
  sessionId: number;
  /** Opened by a password while the user's role needs a second factor it lacks: only the setup is reachable. */
  secondFactorPending?: boolean;
  /** When the owner last proved it is them in this session (ms since the epoch; auth/confirmation.ts). */
  confirmedAt?: number;
}

/** What the guard asks of the sign-in tokens: who a token stands for, if anyone (auth/sessions.ts answers). */
export interface TokenResolver {
  resolve(token: string | undefined): Promise<TokenOwner | undefined>;
}

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

/**
 * The guard: public needs no token, every other access a valid one, and a capability a role that holds it
 * somewhere (everywhere, or in its own channels: the handler then asks about the channel the call names).
 */
export async function authenticate(sessions: TokenResolver, req: FastifyRequest, access: Access) {
  const token = tokenOf(req);
  const owner = token ? await sessions.resolve(token) : undefined;
  if (access === 'public') return owner;
  if (!owner) throw unauthorized(token ? 'session_expired' : 'token_missing');
  // A session waiting for its second factor's setup reaches only that setup (issue 38).
  if (owner.secondFactorPending && !protocol.SETUP_PENDING_ALLOWED.includes(req.url.split('?')[0] ?? '')) {
    throw forbidden('second_factor_setup_required');
  }
  if (protocol.isCapability(access) && !protocol.mayAnywhere(owner, access)) throw forbidden(refusalOf(access));
  return owner;
}

/** Says "only an administrator" when only administrators hold the capability, else that the role does not. */
function refusalOf(capability: Capability): 'admin_only' | 'not_allowed' {
  const holders = protocol.ROLES.filter((role) => protocol.mayAnywhere({ role }, capability));
  return holders.length === 1 && holders[0] === 'admin' ? 'admin_only' : 'not_allowed';
}

/** One may act on oneself; on anyone else only with this capability (an administrator's, users.manage). */
export function requireSelfOr(auth: TokenOwner, userId: number, capability: Capability): void {
  if (auth.userId !== userId && !protocol.may(auth, null, capability)) throw forbidden('own_account_only');
}

export function parseBody<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw ?? {});
  if (!result.success) throw invalidInput(describeZodError(result.error));
  return result.data;
}

const callNames = new Map<Call, string>(
  Object.entries(protocol).flatMap(([name, value]) => (protocol.isCall(value) ? [[value, name] as const] : [])),
);

/**
 * The Fastify schema of a call: what the OpenAPI document shows and what the type provider validates and
 * serialises. A multipart body is only documented: the handler reads the parts itself (see routeOptions).
 */
export function routeSchema(call: Call): FastifySchema & Record<string, unknown> {
  return {
    operationId: callNames.get(call),
    description: `Access: ${call.access} (${protocol.describeAccess(call.access)}). See docs/api.md.`,
    ...(call.access === 'public' ? { security: [] } : {}),
    ...(call.method === 'GET' ? {} : { body: call.body }),
    ...(call.encoding ? { consumes: [call.encoding] } : {}),
    response: { 200: call.response, '4xx': protocol.ErrorResponseSchema },
  };
}

/** For schemas that only document: the handler checks the input itself and answers in its own words. */
const documentOnly = () => (value: unknown) => ({ value });

/** Route options of a call that a handler of its own serves (multipart upload, GET). */
export function routeOptions(call: Call) {
  return { schema: routeSchema(call), ...(call.encoding ? { validatorCompiler: documentOnly } : {}) };
}

/** GET /files/{name}: documented; a bad or expired link is the handler's 403, not a 400. */
export const fileLinkOptions = {
  schema: {
    operationId: 'GetFile',
    security: [],
    description: 'A chat image, with its type, nosniff and its original name. The signed path is the proof.',
    params: protocol.FileLink.params,
    querystring: protocol.FileLink.querystring,
    response: { '4xx': protocol.ErrorResponseSchema },
  },
  validatorCompiler: documentOnly,
};

export function defineRoutes(app: FastifyInstance, sessions: TokenResolver) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  return function route<C extends Call<z.ZodType, z.ZodType, A>, A extends Access>(
    call: C & { access: A },
    handler: (
      ctx: RouteContext<C extends Call<infer S, z.ZodType> ? z.output<S> : never, AuthFor<A>>,
    ) => Promise<ResponseOf<C>>,
  ): void {
    const owners = new WeakMap<FastifyRequest, TokenOwner | undefined>();
    typed.post(call.path, {
      schema: routeSchema(call),
      // Runs after the body is read and before it is validated: no token, no word about the body.
      preValidation: async (req) => {
        owners.set(req, await authenticate(sessions, req, call.access));
        req.body ??= {};
      },
      handler: async (req, reply) => {
        const auth = owners.get(req) as AuthFor<A>;
        const body = req.body as C extends Call<infer S, z.ZodType> ? z.output<S> : never;
        const run = () => handler({ body, auth, req, reply });
        // An administrator's change is written with its audit row, in one transaction (audit/auditing.ts).
        return app.auditing ? app.auditing.around(call, { auth, req, body }, run) : run();
      },
    });
  };
}

export type RouteFn = ReturnType<typeof defineRoutes>;
export type { BodyOf };
