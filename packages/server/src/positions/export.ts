/**
 * Positions as a file, one track per user, written while the rows are read (a batch at a time, never the whole
 * export in memory): GPX 1.1 (a <trk> per user, one <trkseg>, a <trkpt> per position with its <time>; the
 * accuracy, which GPX has no element for, in the track point's <extensions> under a namespace of ours) or
 * GeoJSON (RFC 7946: a FeatureCollection, a Feature per user, a LineString of [lng, lat] positions, or a Point
 * for a user with one position, with the times and accuracies in its properties, one entry per position).
 */
import { Readable } from 'node:stream';
import type { PositionExportFormat } from '@talkgroup/protocol';
import type { PositionStore, StoredPosition } from './store.ts';

export interface TrackOwner {
  id: number;
  name: string;
}

export const EXPORT_TYPES: Record<PositionExportFormat, { mime: string; extension: string }> = {
  gpx: { mime: 'application/gpx+xml; charset=utf-8', extension: 'gpx' },
  geojson: { mime: 'application/geo+json; charset=utf-8', extension: 'geojson' },
};

const GPX_NS = 'http://www.topografix.com/GPX/1/1';
/** Elements of our own in <extensions> must be in another namespace than GPX's (the schema says ##other). */
export const TALKGROUP_GPX_NS = 'urn:talkgroup:gpx:1';

/** Text and attribute values of XML: names are user input. Characters XML 1.0 forbids are dropped. */
export function xmlText(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

/** Sends what was written in pieces of about this size rather than a write per point. */
const CHUNK = 64 * 1024;

async function* chunked(parts: AsyncIterable<string>): AsyncGenerator<string> {
  let pending = '';
  for await (const part of parts) {
    pending += part;
    if (pending.length >= CHUNK) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending;
}

async function* gpx(
  positions: PositionStore,
  owners: TrackOwner[],
  from: Date,
  to: Date,
  now: Date,
): AsyncGenerator<string> {
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<gpx version="1.1" creator="Talkgroup" xmlns="${GPX_NS}" xmlns:talkgroup="${TALKGROUP_GPX_NS}">\n`;
  yield `<metadata><name>${xmlText(`Talkgroup ${from.toISOString()} – ${to.toISOString()}`)}</name><time>${now.toISOString()}</time></metadata>\n`;
  for (const owner of owners) {
    yield `<trk><name>${xmlText(owner.name)}</name><src>Talkgroup</src><type>user ${owner.id}</type><trkseg>\n`;
    for await (const point of positions.track(owner.id, from, to)) {
      const accuracy =
        point.accuracy === null
          ? ''
          : `<extensions><talkgroup:accuracy>${point.accuracy}</talkgroup:accuracy></extensions>`;
      yield `<trkpt lat="${point.lat}" lon="${point.lng}"><time>${point.createdAt}</time>${accuracy}</trkpt>\n`;
    }
    yield '</trkseg></trk>\n';
  }
  yield '</gpx>\n';
}

async function* geojson(positions: PositionStore, owners: TrackOwner[], from: Date, to: Date): AsyncGenerator<string> {
  yield '{"type":"FeatureCollection","features":[';
  let firstFeature = true;
  for (const owner of owners) {
    // A user's track is read once per array it fills (times, accuracies, coordinates), so that none is held
    // in memory; every pass stops at the last row the first one saw.
    let count = 0;
    let lastId = 0;
    for await (const point of positions.track(owner.id, from, to)) {
      if (count === 0)
        yield `${firstFeature ? '' : ','}\n{"type":"Feature","id":${owner.id},"properties":{"userId":${owner.id},"name":${JSON.stringify(owner.name)},"times":[`;
      yield `${count === 0 ? '' : ','}${JSON.stringify(point.createdAt)}`;
      count += 1;
      lastId = Math.max(lastId, point.id);
    }
    if (count === 0) continue;
    firstFeature = false;
    const seen = (point: StoredPosition) => point.id <= lastId;
    yield '],"accuracies":[';
    let index = 0;
    for await (const point of positions.track(owner.id, from, to)) {
      if (!seen(point)) continue;
      yield `${index++ === 0 ? '' : ','}${JSON.stringify(point.accuracy)}`;
    }
    yield `]},"geometry":{"type":"${count === 1 ? 'Point' : 'LineString'}","coordinates":${count === 1 ? '' : '['}`;
    index = 0;
    for await (const point of positions.track(owner.id, from, to)) {
      if (!seen(point)) continue;
      yield `${index++ === 0 ? '' : ','}[${point.lng},${point.lat}]`;
      if (count === 1) break;
    }
    yield `${count === 1 ? '' : ']'}}}`;
  }
  yield '\n]}\n';
}

/** The export as a stream of UTF-8 text. */
export function positionExport(
  positions: PositionStore,
  format: PositionExportFormat,
  owners: TrackOwner[],
  from: Date,
  to: Date,
): Readable {
  const parts = format === 'gpx' ? gpx(positions, owners, from, to, new Date()) : geojson(positions, owners, from, to);
  return Readable.from(chunked(parts), { objectMode: false });
}
