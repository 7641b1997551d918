/**
 * What the socket fuzz tests send in place of a valid payload or field (socket-fuzz.test for issue 60's events,
 * video-fuzz.test for live video's): hostile values of every JSON type and a few that are not JSON, and seeded
 * random JSON objects made of the event's own field names, so that a failure is the same on the next run.
 */

export const HOSTILE: unknown[] = [
  null,
  0,
  -1,
  1e308,
  -1e308,
  2 ** 53 + 1,
  '',
  ' ',
  'x'.repeat(100_000),
  '\u0000\uffff\ud800',
  '<script>alert(1)</script>',
  "'; drop table users; --",
  true,
  [],
  [1, 'two', null],
  {},
  { length: 1e9 },
  JSON.parse('{"__proto__": {"polluted": "yes"}}'),
  { constructor: { prototype: { polluted: 'yes' } } },
  Buffer.from([0, 1, 2, 255]),
  nested(2000),
];

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = { down: value };
  return value;
}

/** mulberry32: a small seeded generator in [0, 1). */
export function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random JSON: numbers, strings, booleans, null, arrays and objects whose keys are among `keys`. */
export function randomJson(random: () => number, keys: readonly string[], depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 3 ? 4 : 6));
  if (pick === 0) return Math.floor(random() * 2 ** 32) - 2 ** 31;
  if (pick === 1)
    return random()
      .toString(36)
      .repeat(1 + Math.floor(random() * 5));
  if (pick === 2) return random() < 0.5;
  if (pick === 3) return null;
  if (pick === 4) return Array.from({ length: Math.floor(random() * 4) }, () => randomJson(random, keys, depth + 1));
  return Object.fromEntries(
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => [
      keys[Math.floor(random() * keys.length)],
      randomJson(random, keys, depth + 1),
    ]),
  );
}
