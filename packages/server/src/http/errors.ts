/** Errors keep the spec's response shape: `{ success: false, result: "<clear sentence>" }`. */
import type { FieldIssue, ServerMessageCode, ServerMessageParams } from '@talkgroup/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodError } from 'zod';
import { isServerMessageCode, languageOf, serverText } from './messages.ts';
import { databaseUnreachable, diskFull } from './outages.ts';

/**
 * A code of the catalogue, or (for code not yet moved to codes) a plain English sentence, which then travels
 * as `bad_request` with the sentence as its detail: the web app shows it as it is.
 */
export type Said = ServerMessageCode | (string & {});

export class HttpError extends Error {
  readonly statusCode: number;
  /** What the sentence says, for any language (packages/protocol/src/server-messages.ts). */
  readonly code: ServerMessageCode;
  readonly params: ServerMessageParams | undefined;
  /** A 400's refused fields with their bounds (issue 70), for a form to mark them. */
  readonly fields: FieldIssue[] | undefined;
  constructor(statusCode: number, what: Said, params?: ServerMessageParams, fields?: FieldIssue[]) {
    const code: ServerMessageCode = isServerMessageCode(what) ? what : 'bad_request';
    const values = isServerMessageCode(what) ? params : { details: what };
    super(serverText(code, values));
    this.statusCode = statusCode;
    this.code = code;
    this.params = values;
    this.fields = fields;
  }
}

export const badRequest = (what: Said, params?: ServerMessageParams) => new HttpError(400, what, params);
/** 400 for a body that breaks a rule: the sentence names the fields; `fields` says them for a form (issue 70). */
export const invalidInput = (details: string, fields?: FieldIssue[]) =>
  new HttpError(400, 'invalid_input', { details }, fields);
export const unauthorized = (what: Said = 'token_missing') => new HttpError(401, what);
export const forbidden = (what: Said = 'admin_only') => new HttpError(403, what);
/** A code (`user_not_found`), or the name of the missing thing ('Voice message' -> 'Voice message not found.'). */
export const notFound = (what: Said) =>
  isServerMessageCode(what) ? new HttpError(404, what) : new HttpError(404, 'not_found', { what });
export const conflict = (what: Said, params?: ServerMessageParams) => new HttpError(409, what, params);

interface Issue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  expected?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  /** False for a strict bound (`positive()`: above 0), which a form cannot show as "at least". */
  inclusive?: unknown;
  /** What was bounded: `number` (a length's bound, `string` or `array`, is not a field's bound). */
  origin?: unknown;
}

/** Each refused field, with its bound when the refusal is one (zod's too_small / too_big). */
function fieldsOf(issues: readonly Issue[]): FieldIssue[] {
  return issues
    .filter((issue) => issue.path.length > 0)
    .map((issue) => {
      const field = issue.path.map(String).join('.');
      const bound = (value: unknown) =>
        typeof value === 'number' && Number.isFinite(value) && issue.origin === 'number' && issue.inclusive !== false
          ? value
          : undefined;
      const min = issue.code === 'too_small' ? bound(issue.minimum) : undefined;
      const max = issue.code === 'too_big' ? bound(issue.maximum) : undefined;
      return { field, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
    });
}

function describeIssues(issues: readonly Issue[]): string {
  return issues
    .map((issue) => {
      const field = issue.path.map(String).join('.') || 'body';
      const message =
        issue.code === 'invalid_type' ? `expected ${issue.expected}` : issue.message.replace(/^Invalid input: /, '');
      return `${field}: ${message}`;
    })
    .join('; ');
}

/** "firstName: must not be empty; email: Invalid email" */
export function describeZodError(error: ZodError): string {
  return describeIssues(error.issues);
}

/** The same sentence for a body that the route's schema (fastify-type-provider-zod) refused. */
type Validation = ReadonlyArray<{
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}>;

function issuesOf(validation: Validation): Issue[] {
  return validation.map((entry) => ({
    path: entry.instancePath
      .split('/')
      .slice(1)
      .filter((part) => part !== ''),
    code: entry.keyword,
    message: entry.message ?? '',
    expected: entry.params.expected,
    minimum: entry.params.minimum,
    maximum: entry.params.maximum,
    inclusive: entry.params.inclusive,
    origin: entry.params.origin,
  }));
}

function describeValidation(validation: Validation): string {
  return describeIssues(issuesOf(validation));
}

/** `{ success: false, result, code, params? }`, `result` in the request's language. */
function sendFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: ServerMessageCode,
  params?: ServerMessageParams,
  fields?: FieldIssue[],
) {
  return reply.status(status).send({
    success: false,
    result: serverText(code, params, languageOf(request)),
    code,
    ...(params ? { params } : {}),
    ...(fields && fields.length > 0 ? { fields } : {}),
  });
}

export function registerErrorHandler(app: FastifyInstance): void {
  // A sentence that a route answers with (`said(code)`) is rewritten in the language the caller asked for.
  app.addHook('preSerialization', async (request, _reply, payload) => {
    const answer = payload as { code?: unknown; params?: ServerMessageParams; result?: unknown } | null;
    if (!answer || typeof answer !== 'object' || !isServerMessageCode(answer.code) || typeof answer.result !== 'string')
      return payload;
    const language = languageOf(request);
    return language === 'en' ? payload : { ...answer, result: serverText(answer.code, answer.params, language) };
  });
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError)
      return sendFailure(request, reply, error.statusCode, error.code, error.params, error.fields);
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = describeValidation(error.validation);
      return sendFailure(request, reply, 400, 'invalid_input', { details }, fieldsOf(issuesOf(error.validation)));
    }
    const status = error.statusCode ?? 500;
    if (status === 413) return sendFailure(request, reply, 413, 'request_too_large');
    if (status === 415) return sendFailure(request, reply, 415, 'json_required');
    if (status >= 400 && status < 500) {
      if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError)
        return sendFailure(request, reply, status, 'invalid_json');
      return sendFailure(request, reply, status, 'bad_request', { details: error.message });
    }
    // The database away or the disk full: the client is told to come back, and the server serves again by itself.
    if (databaseUnreachable(error)) {
      request.log.warn({ err: error }, 'the database did not answer');
      return sendFailure(request, reply.header('retry-after', '5'), 503, 'database_unavailable');
    }
    if (diskFull(error)) {
      request.log.error({ err: error }, 'the disk is full');
      return sendFailure(request, reply, 507, 'disk_full');
    }
    request.log.error({ err: error }, 'request failed');
    return sendFailure(request, reply, 500, 'server_error');
  });
  app.setNotFoundHandler((request, reply) => sendNoSuchCall(request, reply));
}

/** 404 `No such call: METHOD /path` (also the single-page fallback's answer for a missing file). */
export function sendNoSuchCall(request: FastifyRequest, reply: FastifyReply) {
  return sendFailure(request, reply, 404, 'no_such_call', {
    method: request.method,
    path: request.url.split('?')[0] ?? '',
  });
}
