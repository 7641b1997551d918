/**
 * The one way the web app talks to the server: `api(Call, body)` posts JSON to the call's path (both from
 * packages/protocol), with the session token in x-access-token, and returns the call's typed response.
 * A failure throws ApiError carrying the server's sentence (`result`). A 401 on a request that carried a
 * token means the session is gone: the storages are cleared and the app goes to /signin.
 */
import type { BodyOf, Call, FieldIssue, ResponseOf, ServerMessageCode, ServerMessageParams } from '@talkgroup/protocol';
import i18next from 'i18next';
import { isChannelGone } from './goneChannels.ts';
import { clearStorages, getToken } from './session.ts';

/** Any call of the contract. */
export type AnyCall = Call<any, any>;

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached. */
  readonly status: number;
  /** The server's sentence (`{ success: false, result }`), when it sent one. */
  readonly result: string | undefined;
  /** What the sentence says, for any language (packages/protocol/src/server-messages.ts). */
  readonly code: ServerMessageCode | undefined;
  readonly params: ServerMessageParams | undefined;
  /** A 400's refused fields with their bounds (issue 70): a form marks each beside its field. */
  readonly fields: FieldIssue[];
  readonly path: string;

  constructor(
    path: string,
    status: number,
    result: string | undefined,
    code?: ServerMessageCode,
    params?: ServerMessageParams,
    fields: FieldIssue[] = [],
  ) {
    super(result ?? (status === 0 ? `Network error on ${path}` : `HTTP ${status} on ${path}`));
    this.name = 'ApiError';
    this.path = path;
    this.status = status;
    this.result = result;
    this.code = code;
    this.params = params;
    this.fields = fields;
  }
}

/** An ApiError from a failure's JSON answer `{ result, code?, params? }`. */
export function apiErrorOf(path: string, status: number, payload: unknown): ApiError {
  const answer = (payload && typeof payload === 'object' ? payload : {}) as Record<string, unknown>;
  return new ApiError(
    path,
    status,
    typeof answer.result === 'string' ? answer.result : undefined,
    typeof answer.code === 'string' ? (answer.code as ServerMessageCode) : undefined,
    answer.params && typeof answer.params === 'object' ? (answer.params as ServerMessageParams) : undefined,
    Array.isArray(answer.fields)
      ? answer.fields.filter(
          (issue): issue is FieldIssue => !!issue && typeof issue === 'object' && typeof issue.field === 'string',
        )
      : [],
  );
}

/** What a failed save said of one field (`loneWorker.intervalSeconds`), if anything (issue 70). */
export function fieldIssue(error: unknown, field: string): FieldIssue | undefined {
  return error instanceof ApiError ? error.fields.find((issue) => issue.field === field) : undefined;
}

/** The server's sentence in the reader's language: its code's text (common:server.<code>), else `result` as sent. */
export function serverSentence(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const key = `common:server.${error.code}`;
  if (error.code && i18next.exists(key)) return i18next.t(key as never, error.params ?? {}) as string;
  return error.result;
}

export interface ApiOptions {
  signal?: AbortSignal;
  /** Send no token (sign-in and sign-up, spec section 7: "no token"). */
  anonymous?: boolean;
  /** Use this token instead of the session's (call views whose link carries a token). */
  token?: string;
}

let onUnauthorized: () => void = () => window.location.assign('/signin');

/** The app layer plugs the router in here, so that a 401 navigates without reloading the page. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

/**
 * The session is over (a 401, or the server ending the session's sockets): the storages are cleared and the
 * app goes to /signin, saying so.
 */
export function endSession(): void {
  clearStorages();
  onUnauthorized();
}

/** The server's sentence if there is one, else the given fallback (for example 'Error while login'). */
export function errorMessage(error: unknown, fallback: string): string {
  return serverSentence(error) || fallback;
}

export async function api<C extends AnyCall>(
  call: C,
  body: BodyOf<C>,
  options: ApiOptions = {},
): Promise<ResponseOf<C>> {
  // A channel the page knows is gone (an ended regroup's): answered here as the server would, nothing sent.
  if (isChannelGone((body as { channelId?: unknown } | undefined)?.channelId))
    throw new ApiError(call.path, 404, 'This channel is no more.', 'channel_not_found');
  const token = options.anonymous ? null : (options.token ?? getToken());
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  // The server writes `result` in this language too (for any sentence without a text of ours).
  if (i18next.language) headers['accept-language'] = i18next.language;
  if (token) headers['x-access-token'] = token;

  let response: Response;
  try {
    response = await fetch(call.path, {
      method: 'POST',
      headers,
      body: JSON.stringify(body ?? {}),
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(call.path, 0, undefined);
  }

  const payload: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    if (response.status === 401 && token && !options.token) endSession();
    throw apiErrorOf(call.path, response.status, payload);
  }
  return payload as ResponseOf<C>;
}

/** Query retry policy: none for a client error (4xx), whose answer will not change; two for the rest. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}
