/** The reading of one environment variable's value (config.ts): a wrong value stops the start, naming it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isEmail } from '@talkgroup/protocol';

export class ConfigError extends Error {}

export function parsePort(raw: string | undefined, name = 'PORT'): number {
  const port = Number(raw ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new ConfigError(`${name} must be a port number, not "${raw}"`);
  return port;
}

export function parseSeconds(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0)
    throw new ConfigError(`${name} must be a number of seconds, not "${raw}"`);
  return seconds;
}

export function parsePositiveSeconds(name: string, raw: string | undefined, fallback: number): number {
  const seconds = parseSeconds(name, raw, fallback);
  if (seconds <= 0) throw new ConfigError(`${name} must be a number of seconds above 0, not "${raw}"`);
  return seconds;
}

export function parseDays(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const days = Number(raw);
  if (!Number.isFinite(days) || days <= 0)
    throw new ConfigError(`${name} must be a number of days above 0, not "${raw}"`);
  return days;
}

export function parseBytes(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const bytes = Number(raw);
  if (!Number.isInteger(bytes) || bytes < 1024)
    throw new ConfigError(`${name} must be a number of bytes (1024 or more), not "${raw}"`);
  return bytes;
}

/** A number of megabytes, 0 or more (0: none). */
export function parseMegabytes(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const megabytes = Number(raw);
  if (!Number.isInteger(megabytes) || megabytes < 0)
    throw new ConfigError(`${name} must be a whole number of megabytes (0 or more), not "${raw}"`);
  return megabytes;
}

/** TLS_CERT / TLS_KEY: the PEM itself, or the path of a file that holds it. */
export function readPem(name: string, raw: string | undefined, base: string): string | undefined {
  if (!raw) return undefined;
  if (raw.includes('-----BEGIN')) return raw;
  const file = path.resolve(base, raw);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(`${name} must be PEM contents or the path of a readable PEM file; cannot read ${file}`);
  }
}

export function parseCount(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1)
    throw new ConfigError(`${name} must be a whole number above 0, not "${raw}"`);
  return count;
}

export function parseHours(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const hours = Number(raw);
  if (!Number.isFinite(hours) || hours <= 0)
    throw new ConfigError(`${name} must be a number of hours above 0, not "${raw}"`);
  return hours;
}

/** A comma list of addresses of one scheme (JANUS_URL: ws:// or wss://; TURN_URLS: turn: or turns:). */
export function parseUrls(name: string, raw: string | undefined, scheme: RegExp, example: string): string[] {
  const urls = (raw ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  for (const url of urls)
    if (!scheme.test(url)) throw new ConfigError(`${name} must list addresses such as ${example}, not "${url}"`);
  return urls;
}

/** FRAME_ANCESTORS: origins (https://partner.example.org) separated by spaces or commas. */
export function parseOrigins(name: string, raw: string | undefined): string[] {
  const origins = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  for (const origin of origins) {
    if (!/^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(origin))
      throw new ConfigError(`${name} must list origins such as https://intranet.example.org, not "${origin}"`);
  }
  return origins;
}

/** A setting that is on or off: `true` or `false` (unset: off). */
export function parseFlag(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(`${name} must be true or false, not "${raw}"`);
}

/** Esri World Imagery: satellite tiles that need no key; labels come from a second layer. */
const DEFAULT_TILES = 'https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}';
const DEFAULT_LABELS =
  'https://server.arcgisonline.com/ArcGIS/rest/services/Reference/World_Boundaries_and_Places/MapServer/tile/{z}/{y}/{x}';
const DEFAULT_ATTRIBUTION = 'Esri, Maxar, Earthstar Geographics';

/**
 * The map's tile sources (MAP_TILE_URL, MAP_LABELS_URL) and credit line (MAP_ATTRIBUTION, issue 58): Esri's
 * imagery with labels by default; one's own tile server has no labels layer and no credit unless told.
 */
export function mapSources(env: NodeJS.ProcessEnv): {
  mapTileUrl: string;
  mapLabelsUrl: string | undefined;
  mapAttribution: string | undefined;
} {
  const own = Boolean(env.MAP_TILE_URL);
  return {
    mapTileUrl: env.MAP_TILE_URL || DEFAULT_TILES,
    mapLabelsUrl: own ? env.MAP_LABELS_URL || undefined : (env.MAP_LABELS_URL ?? DEFAULT_LABELS),
    mapAttribution: env.MAP_ATTRIBUTION?.trim() || (own ? undefined : DEFAULT_ATTRIBUTION),
  };
}

/**
 * ADMIN_LOGIN (issue 70): the sign-in form asks for an e-mail (spec section 3), so an administrator made with
 * any other login could never sign in: the start refuses it, saying what to set.
 */
export function parseSignInLogin(name: string, raw: string | undefined): string | undefined {
  const login = raw?.trim();
  if (!login) return undefined;
  if (!isEmail(login))
    throw new ConfigError(
      `${name} must be an e-mail address, as the sign-in form asks for one (for example admin@example.org), not "${raw}"`,
    );
  return login;
}
