/**
 * Whether a tile source answers (issue 58: a map without the internet). One record per tile template, shared by
 * every map of the page, so that a second map, or the same one mounted again, neither asks again nor starts over:
 *
 * - `unknown`: one tile is asked (the one under the map's centre), not a whole view at once;
 * - `up`: the layer loads its tiles; FAILURES_BEFORE_DOWN failures in a row, with no tile loaded between, and
 *   the source is `down` (the layer is taken off, which drops its pending requests);
 * - `down`: one tile is asked again after a delay that doubles from FIRST_RETRY_MS to LAST_RETRY_MS; when it
 *   loads the source is `up` again. Coming back online (the `online` event) asks at once, and so does a move of
 *   the map to another place (at most once a second: an extract that covers only a region may serve where the
 *   map goes, as when it first fits its members).
 *
 * So a tile server that is off, or that answers errors, costs one request per retry instead of a view's worth
 * on each page, and the map says so (BaseTiles) instead of a blank box.
 */

export type TileState = 'unknown' | 'up' | 'down';

/** A tile's address for a z/x/y (the map's centre). */
export type TileAt = () => { z: number; x: number; y: number } | undefined;

export const FAILURES_BEFORE_DOWN = 6;
export const FIRST_RETRY_MS = 5_000;
export const LAST_RETRY_MS = 300_000;
/** A tile that neither loads nor fails in this time counts as failed (a server that does not answer). */
export const PROBE_TIMEOUT_MS = 10_000;
/** A move of the map asks again at most this often while the source is down. */
export const MOVE_PROBE_MS = 1_000;

interface Source {
  state: TileState;
  failures: number;
  retryMs: number;
  timer: ReturnType<typeof setTimeout> | undefined;
  probing: boolean;
  /** When the last probe started (ms): a move of the map asks again, at most once per MOVE_PROBE_MS. */
  probedAt: number;
  listeners: Set<() => void>;
  /** Where the mounted maps are: a probe asks for the tile under the latest one's centre. */
  places: TileAt[];
}

const sources = new Map<string, Source>();

function sourceOf(template: string): Source {
  let source = sources.get(template);
  if (!source) {
    source = {
      state: 'unknown',
      failures: 0,
      retryMs: FIRST_RETRY_MS,
      timer: undefined,
      probing: false,
      probedAt: 0,
      listeners: new Set(),
      places: [],
    };
    sources.set(template, source);
  }
  return source;
}

function set(source: Source, state: TileState): void {
  if (source.state === state) return;
  source.state = state;
  for (const listener of source.listeners) listener();
}

/** The template filled in for one tile, as Leaflet fills it ({s} the first subdomain, {r} no retina suffix). */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  const values: Record<string, string | number> = { s: 'a', z, x, y, r: '', '-y': 2 ** z - 1 - y };
  return template.replace(/\{ *([\w-]+) *\}/g, (whole, key: string) => (key in values ? String(values[key]) : whole));
}

function schedule(template: string, source: Source): void {
  if (source.timer !== undefined || source.places.length === 0) return;
  const wait = source.retryMs;
  source.retryMs = Math.min(source.retryMs * 2, LAST_RETRY_MS);
  source.timer = setTimeout(() => {
    source.timer = undefined;
    probe(template, source);
  }, wait);
}

function probe(template: string, source: Source): void {
  if (source.probing || source.state === 'up') return;
  const at = source.places.at(-1)?.();
  if (!at) return;
  source.probing = true;
  source.probedAt = Date.now();
  const image = new Image();
  let settled = false;
  const settle = (loaded: boolean) => {
    if (settled) return;
    settled = true;
    clearTimeout(timeout);
    image.onload = null;
    image.onerror = null;
    source.probing = false;
    if (loaded) {
      source.failures = 0;
      source.retryMs = FIRST_RETRY_MS;
      set(source, 'up');
    } else {
      set(source, 'down');
      schedule(template, source);
    }
  };
  const timeout = setTimeout(() => {
    image.src = '';
    settle(false);
  }, PROBE_TIMEOUT_MS);
  image.onload = () => settle(true);
  image.onerror = () => settle(false);
  image.src = tileUrl(template, at.z, at.x, at.y);
}

/** The `online` event: every source that is down asks again now. */
function retryAll(): void {
  for (const [template, source] of sources) {
    if (source.state !== 'down') continue;
    clearTimeout(source.timer);
    source.timer = undefined;
    source.retryMs = FIRST_RETRY_MS;
    probe(template, source);
  }
}
if (typeof window !== 'undefined') window.addEventListener('online', retryAll);

export const tileHealth = {
  state(template: string): TileState {
    return sourceOf(template).state;
  },

  subscribe(template: string, listener: () => void): () => void {
    const source = sourceOf(template);
    source.listeners.add(listener);
    return () => source.listeners.delete(listener);
  },

  /** A map shows this source: asks a first tile if nothing is known yet, or resumes the retries. */
  attach(template: string, at: TileAt): () => void {
    const source = sourceOf(template);
    source.places.push(at);
    // After this render's other effects: the map has fitted its members by then, when their places are known.
    if (source.state === 'unknown') setTimeout(() => probe(template, source), 0);
    else if (source.state === 'down') schedule(template, source);
    return () => {
      source.places = source.places.filter((place) => place !== at);
      if (source.places.length === 0 && source.timer !== undefined) {
        clearTimeout(source.timer);
        source.timer = undefined;
      }
    };
  },

  /** The map moved: a source that is down asks for the tile of the new place, if it has not asked just now. */
  moved(template: string): void {
    const source = sourceOf(template);
    if (source.state !== 'down' || source.probing || Date.now() - source.probedAt < MOVE_PROBE_MS) return;
    clearTimeout(source.timer);
    source.timer = undefined;
    probe(template, source);
  },

  /** A tile of the layer loaded: the source answers. */
  loaded(template: string): void {
    const source = sourceOf(template);
    source.failures = 0;
    source.retryMs = FIRST_RETRY_MS;
    set(source, 'up');
  },

  /** A tile of the layer failed: after FAILURES_BEFORE_DOWN in a row the source is down, and retried later. */
  failed(template: string): void {
    const source = sourceOf(template);
    source.failures += 1;
    if (source.state !== 'up' || source.failures < FAILURES_BEFORE_DOWN) return;
    set(source, 'down');
    schedule(template, source);
  },
};

/** What a Leaflet tile event carries (its `<img>`). */
type TileEvent = { tile: HTMLElement };

/**
 * A tile layer's events for this source: each tile's load or failure counted, and a tile that neither loads nor
 * fails within PROBE_TIMEOUT_MS counted as failed (a tile server that hangs after it worked: no error ever comes,
 * and the map stayed grey without a word).
 */
export function tileLayerEvents(template: string) {
  const pending = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>();
  const settle = (event: TileEvent) => {
    clearTimeout(pending.get(event.tile));
    pending.delete(event.tile);
  };
  return {
    tileloadstart: (event: TileEvent) => {
      settle(event);
      pending.set(
        event.tile,
        setTimeout(() => {
          pending.delete(event.tile);
          tileHealth.failed(template);
        }, PROBE_TIMEOUT_MS),
      );
    },
    tileload: (event: TileEvent) => {
      settle(event);
      tileHealth.loaded(template);
    },
    tileerror: (event: TileEvent) => {
      settle(event);
      tileHealth.failed(template);
    },
    // A tile taken off before it answered (the map moved on) is neither loaded nor failed.
    tileunload: settle,
  };
}
