/**
 * The server's sentences, by code (packages/protocol/src/server-messages.ts) and language. `result` is written
 * in the request's Accept-Language (fr, en or de; English when it names none), and `code` (+ `params`) travels
 * beside it so that the web app shows its own text in the reader's language. English keeps the spec's
 * sentences where section 8 gives them.
 */
import {
  SERVER_LANGUAGES,
  type ServerLanguage,
  type ServerMessageCode,
  type ServerMessageParams,
} from '@talkgroup/protocol';
import type { FastifyRequest } from 'fastify';
import { SERVER_TEXTS } from './server-texts.ts';
import { PUSH_NOTIFICATION_TEXTS, type PushNotificationKey } from './server-texts-push.ts';

/** A catalogue's sentence with its `{{name}}` placeholders filled (a missing one is left empty). */
function filled(text: string, params: ServerMessageParams | Record<string, string>): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

export function serverText(code: ServerMessageCode, params: ServerMessageParams = {}, language: ServerLanguage = 'en') {
  return filled(SERVER_TEXTS[code][language], params);
}

/** What a Web Push notification says, in the subscribed device's language. */
export function pushText(key: PushNotificationKey, language: ServerLanguage, params: Record<string, string>): string {
  return filled(PUSH_NOTIFICATION_TEXTS[key][language], params);
}

export function isServerMessageCode(value: unknown): value is ServerMessageCode {
  return typeof value === 'string' && Object.hasOwn(SERVER_TEXTS, value);
}

/** The first of fr, en, de that Accept-Language prefers (by q, then by order); English when none. */
export function languageOf(req: Pick<FastifyRequest, 'headers'>): ServerLanguage {
  const header = req.headers['accept-language'];
  if (typeof header !== 'string' || header === '') return 'en';
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { language: tag.trim().toLowerCase().split('-')[0] ?? '', q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const entry of ranked) {
    const found = SERVER_LANGUAGES.find((language) => language === entry.language);
    if (found) return found;
  }
  return 'en';
}

/** `{ code, params?, result }` of a sentence, in English; the answer hook rewrites `result` for the request. */
export function said(code: ServerMessageCode, params?: ServerMessageParams) {
  return { code, ...(params ? { params } : {}), result: serverText(code, params) };
}
