/** Errors keep the spec's response shape: `{ success: false, result: "<clear sentence>" }`. */
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ZodError } from 'zod';

export class HttpError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Missing or invalid token: sign in again.') => new HttpError(401, message);
export const forbidden = (message = 'Only an administrator may do this.') => new HttpError(403, message);
export const notFound = (what: string) => new HttpError(404, `${what} not found.`);
export const conflict = (message: string) => new HttpError(409, message);

interface Issue {
  path: readonly PropertyKey[];
  code: string;
  message: string;
  expected?: unknown;
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
function describeValidation(
  validation: ReadonlyArray<{
    instancePath: string;
    keyword: string;
    message?: string;
    params: Record<string, unknown>;
  }>,
): string {
  return describeIssues(
    validation.map((entry) => ({
      path: entry.instancePath
        .split('/')
        .slice(1)
        .filter((part) => part !== ''),
      code: entry.keyword,
      message: entry.message ?? '',
      expected: entry.params.expected,
    })),
  );
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ success: false, result: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      return reply.status(400).send({ success: false, result: describeValidation(error.validation) });
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return reply.status(413).send({ success: false, result: 'The request is too large.' });
    }
    if (status === 415) {
      return reply.status(415).send({ success: false, result: 'Send the body as application/json.' });
    }
    if (status >= 400 && status < 500) {
      const message =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'The body is not valid JSON.'
          : error.message;
      return reply.status(status).send({ success: false, result: message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ success: false, result: 'Something went wrong on the server.' });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send({ success: false, result: `No such call: ${request.method} ${request.url.split('?')[0]}` }),
  );
}
