/**
 * The pieces the whole lists are sent from (lists/pieces.ts, lists/ordered-blocks.ts): whatever the entries
 * put and taken out, the blocks hold the very JSON of the list in its order, and the gzip pieced together
 * from the pieces decodes to it.
 */
import { crc32, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type Entry, orderedBlocks } from '../src/lists/ordered-blocks.ts';
import { answerPieces, crc32Combine, encoded, listBody } from '../src/lists/pieces.ts';

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % below;
  };
}

const json = (pieces: { bytes: Buffer }[]) => Buffer.concat(pieces.map((p) => p.bytes)).toString();

describe('the CRC of two runs from the CRC of each', () => {
  it('is the CRC of the runs one after the other', () => {
    const next = random(7);
    for (const [a, b] of [
      [0, 0],
      [0, 5],
      [5, 0],
      [1, 1],
      [1000, 70_000],
      [33_333, 1],
    ] as const) {
      const first = Buffer.from(Array.from({ length: a }, () => next(256)));
      const second = Buffer.from(Array.from({ length: b }, () => next(256)));
      expect(crc32Combine(crc32(first), crc32(second), second.length)).toBe(crc32(Buffer.concat([first, second])));
    }
  });
});

describe('entries kept in blocks', () => {
  it('after any mix of puts, moves and removals, the blocks hold the list in its order', async () => {
    const next = random(42);
    const reference = new Map<number, Entry>();
    const ordered = () =>
      [...reference.values()].sort((a, b) =>
        a.createdAt === b.createdAt ? b.id - a.id : a.createdAt > b.createdAt ? -1 : 1,
      );
    const entry = (id: number): Entry => ({
      id,
      // Few distinct times: the id decides the order of many.
      createdAt: `2026-01-0${1 + next(5)}`,
      json: JSON.stringify({ id, name: 'x'.repeat(next(40)), accents: 'é'.repeat(next(3)) }),
    });
    for (let id = 1; id <= 300; id++) reference.set(id, entry(id));
    // Small blocks: cuts and merges happen often.
    const blocks = orderedBlocks(ordered(), 8);
    const expected = () => JSON.stringify(ordered().map((e) => JSON.parse(e.json)));
    expect(`[${json(blocks.pieces())}]`).toBe(expected());

    let nextId = 301;
    for (let round = 0; round < 200; round++) {
      const put: Entry[] = [];
      const removed: number[] = [];
      const ids = [...reference.keys()];
      for (let k = next(12); k > 0; k--) {
        const choice = next(4);
        if (choice === 0 || ids.length === 0) put.push(entry(nextId++));
        else {
          const id = ids[next(ids.length)] as number;
          if (removed.includes(id) || put.some((e) => e.id === id)) continue;
          if (choice === 1) removed.push(id);
          else if (choice === 2) put.push({ ...(reference.get(id) as Entry), json: JSON.stringify({ id, round }) });
          else put.push(entry(id)); // maybe moved: a new created_at
        }
      }
      // Now and then, most entries go at once (blocks emptied one after the other).
      if (round % 50 === 49) removed.push(...ids.filter((id) => id % 3 !== 0 && !put.some((e) => e.id === id)));
      blocks.apply(put, removed);
      for (const id of removed) reference.delete(id);
      for (const e of put) reference.set(e.id, e);
      expect(`[${json(blocks.pieces())}]`, `round ${round}`).toBe(expected());
      expect(blocks.size).toBe(reference.size);
    }

    const body = listBody(answerPieces(blocks.pieces()));
    expect(JSON.parse(json([...body.pieces]))).toEqual({ success: true, res: JSON.parse(expected()) });
    const gzip = Buffer.concat(await encoded(body, 'gzip'));
    expect(gunzipSync(gzip).toString()).toBe(json([...body.pieces]));
  });

  it('unchanged entries keep their block: its hash and its compressed form', () => {
    const entries = Array.from({ length: 40 }, (_, i) => ({ id: 40 - i, createdAt: 'same', json: `{"id":${40 - i}}` }));
    const blocks = orderedBlocks(entries, 8);
    const before = blocks.pieces();
    blocks.apply([{ id: 20, createdAt: 'same', json: '{"id":20,"changed":true}' }], []);
    const after = blocks.pieces();
    expect(after.filter((p, i) => p !== before[i])).toHaveLength(1);
    // The same bytes again: no new piece at all.
    blocks.apply([{ id: 20, createdAt: 'same', json: '{"id":20,"changed":true}' }], []);
    expect(blocks.pieces()).toEqual(after);
    expect(blocks.pieces().every((p, i) => p === after[i])).toBe(true);
  });
});
