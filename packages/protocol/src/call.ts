/**
 * What a call of the contract is: its path, who may make it, the schema of its body and the schema of its
 * answer. The server validates bodies and serialises answers with these schemas and documents them in
 * GET /api/openapi.json; the web client is typed by them.
 */
import { z } from 'zod';
import { CAPABILITIES, type Capability } from './roles.ts';
import { normalizeName } from './rules.ts';
import { ServerMessageCodeSchema, ServerMessageParamsSchema } from './server-messages.ts';

/**
 * Who may make a call (docs/api.md, "Who may do what"), declared once per call: a check of the token's owner
 * (below), or a capability of protocol's roles.ts. The server's route guard checks the token and, for a
 * capability, that the role holds it somewhere (everywhere, or in its own channels); a handler then asks
 * `may` about the channel the call names, and applies the finer rule that a level's name says.
 */
export const ACCESS_LEVELS = {
  public: 'anyone, no token',
  signedIn: 'any valid token',
  self: "one's own account; anyone's for one who holds users.manage (administrators)",
  ownAccount: 'the owner of the account only, administrators included',
  author: "one's own messages in channels one may chat in; anyone's for one who holds messages.moderate",
  gone: 'a legacy call no longer served: 410 for any valid token',
  trails:
    "one's own positions; a user's for one who holds channel.trails in a channel that user belongs to (administrators: anyone's)",
} as const;
export type AccessLevel = keyof typeof ACCESS_LEVELS;
/** A level, or the capability the call needs (`users.manage`, `channel.read`, ...). */
export type Access = AccessLevel | Capability;

/** What an access means, in words (the OpenAPI document and docs/api.md). */
export function describeAccess(access: Access): string {
  if (Object.hasOwn(ACCESS_LEVELS, access)) return ACCESS_LEVELS[access as AccessLevel];
  return `capability ${access}: ${CAPABILITIES[access as Capability]}`;
}

export interface Call<
  Body extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
  A extends Access = Access,
> {
  path: string;
  access: A;
  body: Body;
  /** The answer of a success (200). */
  response: Response;
  /** Absent: POST with a JSON body. */
  method?: 'GET';
  /** Absent: JSON. The body schema then describes the form's text fields. */
  encoding?: 'multipart/form-data';
}

/** `call(responseSchema)(path, access, bodySchema)`: the answer first, so that a call reads like its docs row. */
export function call<Response extends z.ZodType>(response: Response) {
  return <A extends Access, Body extends z.ZodType>(
    path: string,
    access: A,
    body: Body,
    options: Pick<Call, 'method' | 'encoding'> = {},
  ): Call<Body, Response, A> => ({ path, access, body, response, ...options });
}

/** Whether a value exported by this package is a call of the contract (the server, tests and docs walk them). */
export function isCall(value: unknown): value is Call {
  const candidate = value as Partial<Call> | null;
  return (
    typeof candidate?.path === 'string' &&
    typeof candidate.access === 'string' &&
    candidate.body instanceof z.ZodType &&
    candidate.response instanceof z.ZodType
  );
}

export type BodyOf<C> = C extends Call<infer B, z.ZodType> ? z.input<B> : never;
export type ResponseOf<C> = C extends Call<z.ZodType, infer R> ? z.output<R> : never;

/**
 * One field a 400 refused (issue 70), for a form to mark it: its path in the body (`loneWorker.intervalSeconds`)
 * and, when the refusal is a bound, the bound (`min` or `max`, inclusive) and its unit when the field has one.
 */
export const FieldIssueSchema = z.object({
  field: z.string(),
  min: z.number().optional(),
  max: z.number().optional(),
  unit: z.enum(['seconds', 'minutes']).optional(),
});
export type FieldIssue = z.output<typeof FieldIssueSchema>;

/** Errors keep the response shape: `{ success: false, result: "<clear sentence>" }`. */
export const ErrorResponseSchema = z
  .object({
    success: z.literal(false),
    result: z.string(),
    code: ServerMessageCodeSchema.optional(),
    params: ServerMessageParamsSchema.optional(),
    /** A 400's refused fields, each with its bound (the sentence says the same, for older clients). */
    fields: z.array(FieldIssueSchema).optional(),
  })
  .describe('The call failed: the sentence says why, the code says it for any language (status codes: docs/api.md).');
export type ErrorResponse = z.output<typeof ErrorResponseSchema>;

export const OkSchema = z.object({
  success: z.boolean(),
  result: z.string().optional(),
  code: ServerMessageCodeSchema.optional(),
  params: ServerMessageParamsSchema.optional(),
});
export type Ok = z.output<typeof OkSchema>;
/** `{ success, result?, ...fields }`: the answer of most calls. */
export const ok = <Shape extends z.ZodRawShape>(shape: Shape) => OkSchema.extend(shape);

/** An id may come as a number or as a string of digits (the console keeps ids in localStorage). */
export const Id = z.union([
  z.number().int().positive(),
  z.string().regex(/^\d+$/, 'must be a positive integer').transform(Number),
]);
export const text = (max = 200) => z.string().max(max);
export const requiredText = (max = 200) => z.string().trim().min(1, 'must not be empty').max(max);
/** A channel or user name: normalised (rules.ts normalizeName), then checked. */
export const requiredName = (max = 200) => z.string().overwrite(normalizeName).min(1, 'must not be empty').max(max);
export const nameText = (max = 200) => z.string().overwrite(normalizeName).max(max);
export const Flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
export const Empty = z.object({}).passthrough();
