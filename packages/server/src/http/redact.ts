/**
 * Secrets stay out of the logs: a request's URL is logged with its token-bearing parts replaced — the
 * `token` and `sig` of a query string (a socket's handshake, a signed file link) and the data segment of a
 * user call view link (/userCallView/<JSON with the token>).
 */
const SECRET_PARAMS = new Set(['token', 'sig', 'access_token']);
const SECRET_SEGMENT = /^(\/userCallView\/)[^/?#]+/i;
const REDACTED = '[redacted]';

export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const pathPart = (queryAt < 0 ? url : url.slice(0, queryAt)).replace(SECRET_SEGMENT, `$1${REDACTED}`);
  if (queryAt < 0) return pathPart;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const name = decodeURIComponentSafe(pair.split('=')[0]).toLowerCase();
      return SECRET_PARAMS.has(name) ? `${pair.split('=')[0]}=${REDACTED}` : pair;
    })
    .join('&');
  return `${pathPart}?${query}`;
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Fastify's request serializer, with the URL redacted and no header at all (x-access-token stays out). */
export function redactedRequest(request: {
  method: string;
  url: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    hostname: request.hostname,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
