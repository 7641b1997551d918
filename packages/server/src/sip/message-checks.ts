/**
 * What a SIP message must look like before SIP.js parses it (issue 57): a request line or a status line first, at
 * most MAX_HEADER_LINES header lines, at most MAX_MESSAGE bytes; SIP.js's parser itself, which throws on some
 * malformed headers (a CSeq it cannot read), made to return undefined instead; and the sliding minute the rate
 * limits count in.
 */
import { Core } from 'sip.js';

/** The largest message taken on TCP (a UDP datagram is smaller anyway); a larger request is answered 413. */
export const MAX_MESSAGE = 64 * 1024;
/** A message with more header lines than this is dropped before SIP.js parses it (a real one has about 15). */
export const MAX_HEADER_LINES = 128;
/** A request line (`INVITE sip:1001@host SIP/2.0`) or a status line (`SIP/2.0 200 OK`): anything else is dropped. */
const REQUEST_LINE = /^[A-Za-z][A-Za-z0-9.!%*_+`'~-]* [^ \r\n]+ SIP\/2\.0\r?$/;
const STATUS_LINE = /^SIP\/2\.0 [1-6]\d\d(?: [^\r\n]*)?\r?$/;
/** When the last minute's events came, at most `limit` of them kept: whether one more fits. */
export class SlidingWindow {
  readonly #times: number[] = [];
  saidAt = 0;

  take(now: number, limit: number): boolean {
    const times = this.#times;
    let expired = 0;
    while (expired < times.length && now - times[expired] >= 60_000) expired++;
    if (expired > 0) times.splice(0, expired);
    if (times.length >= limit) return false;
    times.push(now);
    return true;
  }

  get last(): number {
    return this.#times.at(-1) ?? 0;
  }
}

/** What a message's first line says it is; undefined for anything that is not SIP (dropped unread). */
export function kindOf(text: string): 'request' | 'response' | undefined {
  const lineEnd = text.indexOf('\n');
  const first = lineEnd < 0 ? text : text.slice(0, lineEnd);
  if (first.length > 2048) return undefined;
  if (STATUS_LINE.test(first)) return 'response';
  return REQUEST_LINE.test(first) ? 'request' : undefined;
}

/** Header lines before the blank line, counted up to MAX_HEADER_LINES + 1. */
export function tooManyHeaderLines(text: string): boolean {
  const headEnd = text.indexOf('\r\n\r\n');
  const head = headEnd < 0 ? text.length : headEnd;
  let lines = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < head; at = text.indexOf('\n', at + 1))
    if (++lines > MAX_HEADER_LINES) return true;
  return false;
}

/** SIP.js's parser, which throws on some malformed headers (a CSeq it cannot read): undefined for those. */
export function parse(
  text: string,
  logger: Core.Logger,
): Core.IncomingRequestMessage | Core.IncomingResponseMessage | undefined {
  try {
    return Core.Parser.parseMessage(text, logger);
  } catch {
    return undefined;
  }
}
