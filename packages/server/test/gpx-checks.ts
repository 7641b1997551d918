/**
 * How the position exports' tests read what the server wrote (positions-export.test.ts): the GPX by a real XML
 * parser (saxes, namespaces on) checked against the rules of the GPX 1.1 schema for every element it uses, the
 * GeoJSON against RFC 7946's rules for the objects it uses, and both read back by Debian's GPSBabel.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SaxesParser } from 'saxes';

const GPX_NS = 'http://www.topografix.com/GPX/1/1';

export interface ReadBack {
  lat: number;
  lng: number;
  /** ISO time (GPX track points). */
  at?: string;
}

/**
 * The file as GPSBabel reads it: a GPX's track points (`-t`), a GeoJSON's LineStrings (as routes, `-r`) and
 * Points (as waypoints, `-w`), written out as its universal CSV in UTC. It fails on a file it cannot read.
 */
export async function gpsbabelRead(format: 'gpx' | 'geojson', text: string): Promise<ReadBack[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'talkgroup-gpsbabel-'));
  try {
    const file = path.join(dir, `export.${format}`);
    writeFileSync(file, text);
    const read = async (kind: string) => {
      const { stdout } = await promisify(execFile)(
        'gpsbabel',
        [kind, '-i', format, '-f', file, '-o', 'unicsv,utc=0', '-F', '-'],
        { maxBuffer: 64 * 1024 * 1024 },
      );
      const [header = '', ...rows] = stdout.trim().split(/\r?\n/);
      const columns = header.split(',');
      const at = (name: string) => columns.indexOf(name);
      return rows.map((row) => {
        const cells = row.split(',');
        const date = cells[at('Date')];
        const time = cells[at('Time')];
        return {
          lat: Number(cells[at('Latitude')]),
          lng: Number(cells[at('Longitude')]),
          ...(date && time ? { at: new Date(`${date.replaceAll('/', '-')}T${time}Z`).toISOString() } : {}),
        };
      });
    };
    return format === 'gpx' ? await read('-t') : [...(await read('-r')), ...(await read('-w'))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A point as GPSBabel writes it: degrees to 6 decimals. */
export const sixDecimals = ({ lat, lng, at }: { lat: number; lng: number; at?: string }): ReadBack => ({
  lat: Number(lat.toFixed(6)),
  lng: Number(lng.toFixed(6)),
  ...(at ? { at } : {}),
});

/** RFC 7946's members of the objects the export uses: anything else is a foreign member where none belongs. */
export function geojsonProblems(collection: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const only = (object: Record<string, unknown>, allowed: string[], where: string) => {
    for (const key of Object.keys(object))
      if (!allowed.includes(key)) problems.push(`${where}: member ${key} is not RFC 7946's`);
  };
  only(collection, ['type', 'features', 'bbox'], 'FeatureCollection');
  for (const [index, feature] of (collection.features as Array<Record<string, unknown>>).entries()) {
    only(feature, ['type', 'id', 'geometry', 'properties', 'bbox'], `features[${index}]`);
    if (!['string', 'number'].includes(typeof feature.id)) problems.push(`features[${index}]: id`);
    const geometry = feature.geometry as Record<string, unknown>;
    only(geometry, ['type', 'coordinates', 'bbox'], `features[${index}].geometry`);
    // Positions are [longitude, latitude] with at most an altitude; decimal degrees of WGS 84.
    const positions = (geometry.type === 'Point' ? [geometry.coordinates] : geometry.coordinates) as number[][];
    for (const position of positions)
      if (position.length < 2 || position.length > 3 || Math.abs(position[0]) > 180 || Math.abs(position[1]) > 90)
        problems.push(`features[${index}].geometry: position ${JSON.stringify(position)}`);
  }
  return problems;
}

export interface Element {
  ns: string;
  name: string;
  attributes: Record<string, string>;
  children: Element[];
  text: string;
}

/** The document as a tree, by a namespace-aware parser that throws on anything not well-formed. */
export function parseXml(xml: string): Element {
  const parser = new SaxesParser({ xmlns: true });
  const stack: Element[] = [];
  let root: Element | undefined;
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const element: Element = {
      ns: tag.uri,
      name: tag.local,
      attributes: Object.fromEntries(
        Object.values(tag.attributes)
          .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
          .map((a) => [a.local, a.value]),
      ),
      children: [],
      text: '',
    };
    stack[stack.length - 1]?.children.push(element);
    root ??= element;
    stack.push(element);
  });
  parser.on('text', (text) => {
    if (stack.length > 0) stack[stack.length - 1].text += text;
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** GPX 1.1's sequences (gpx.xsd): each type's child elements in the order the schema allows them. */
const SEQUENCES: Record<string, string[]> = {
  gpx: ['metadata', 'wpt', 'rte', 'trk', 'extensions'],
  metadata: ['name', 'desc', 'author', 'copyright', 'link', 'time', 'keywords', 'bounds', 'extensions'],
  trk: ['name', 'cmt', 'desc', 'src', 'link', 'number', 'type', 'extensions', 'trkseg'],
  trkseg: ['trkpt', 'extensions'],
  trkpt: [
    'ele',
    'time',
    'magvar',
    'geoidheight',
    'name',
    'cmt',
    'desc',
    'src',
    'link',
    'sym',
    'type',
    'fix',
    'sat',
    'hdop',
    'vdop',
    'pdop',
    'ageofdgpsdata',
    'dgpsid',
    'extensions',
  ],
};
/** Elements that may repeat (maxOccurs unbounded); every other one occurs at most once. */
const REPEATING = new Set(['wpt', 'rte', 'trk', 'link', 'trkseg', 'trkpt']);
const TEXT_ELEMENTS = new Set(['name', 'desc', 'cmt', 'src', 'type', 'keywords']);
/** xsd:dateTime. */
const DATE_TIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

/** The ways `element` breaks the GPX 1.1 schema (for the elements this project writes). */
export function gpxProblems(element: Element, path = element.name): string[] {
  const problems: string[] = [];
  if (element.ns !== GPX_NS) return [`${path}: not in the GPX 1.1 namespace`];
  if (element.name === 'extensions') {
    // xsd:any namespace="##other": anything, as long as it is not GPX's.
    for (const child of element.children)
      if (child.ns === GPX_NS || child.ns === '') problems.push(`${path}/${child.name}: must be in another namespace`);
    return problems;
  }
  if (element.name === 'gpx') {
    if (element.attributes.version !== '1.1') problems.push('gpx: version must be 1.1');
    if (!element.attributes.creator) problems.push('gpx: creator is required');
  }
  if (element.name === 'trkpt') {
    const lat = Number(element.attributes.lat);
    const lon = Number(element.attributes.lon);
    if (!(lat >= -90 && lat <= 90)) problems.push(`${path}: lat ${element.attributes.lat} is not a latitudeType`);
    if (!(lon >= -180 && lon < 180)) problems.push(`${path}: lon ${element.attributes.lon} is not a longitudeType`);
  }
  if (element.name === 'time' && !DATE_TIME.test(element.text))
    problems.push(`${path}: ${element.text} is not a dateTime`);
  if (TEXT_ELEMENTS.has(element.name) && element.children.length > 0) problems.push(`${path}: text only`);
  const sequence = SEQUENCES[element.name];
  if (sequence) {
    let rank = -1;
    const seen = new Set<string>();
    for (const child of element.children) {
      const at = sequence.indexOf(child.name);
      if (at < 0) problems.push(`${path}: ${child.name} is not allowed here`);
      else if (at < rank) problems.push(`${path}: ${child.name} is out of order`);
      else if (seen.has(child.name) && !REPEATING.has(child.name)) problems.push(`${path}: ${child.name} twice`);
      rank = Math.max(rank, at);
      seen.add(child.name);
      problems.push(...gpxProblems(child, `${path}/${child.name}`));
    }
  } else if (!TEXT_ELEMENTS.has(element.name) && element.name !== 'time' && element.children.length > 0) {
    problems.push(`${path}: unexpected children`);
  }
  return problems;
}

export const child = (element: Element, name: string) => element.children.find((c) => c.name === name);
export const childrenNamed = (element: Element, name: string) => element.children.filter((c) => c.name === name);
