/**
 * The entries of a long list (getAllUsers), newest first (created_at desc, id desc, as the store orders them),
 * kept as the JSON of blocks of about BLOCK_SIZE entries, each block one piece (pieces.ts). Putting or
 * removing entries rebuilds only their blocks: the unchanged entries' bytes are copied from the old block,
 * so the list's JSON is held once. Each block but the first starts with the comma that separates it from the
 * one before.
 */
import { type Piece, piece } from './pieces.ts';

export interface Entry {
  id: number;
  createdAt: string;
  json: string;
}

/**
 * 128 users (about 90 KB of JSON) per block: one change rebuilds, hashes and compresses that much; bigger
 * blocks compress better (zstd: 280 KB for 10,000 users at 128, 340 KB at 64) but waste more when many
 * entries change at once (bench/lists).
 */
const BLOCK_SIZE = 128;

interface Block {
  ids: number[];
  createdAts: string[];
  /** Where each entry's JSON starts in piece.bytes, and its length. */
  starts: number[];
  lengths: number[];
  comma: boolean;
  piece: Piece;
}

/** An entry while its block is being rebuilt: its JSON as text (new) or as bytes (kept). */
interface Item {
  id: number;
  createdAt: string;
  json: string | Buffer;
}

/** Does a come before b in the list? */
function before(a: { createdAt: string; id: number }, b: { createdAt: string; id: number }): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

const COMMA = 0x2c;

function build(items: Item[], comma: boolean, previous?: Piece): Block {
  const parts = items.map((item) => (typeof item.json === 'string' ? Buffer.from(item.json) : item.json));
  let size = (comma ? 1 : 0) + Math.max(0, parts.length - 1);
  for (const part of parts) size += part.length;
  const bytes = Buffer.allocUnsafeSlow(size);
  const starts: number[] = [];
  const lengths: number[] = [];
  let at = 0;
  for (const [i, part] of parts.entries()) {
    if (i > 0 || comma) bytes[at++] = COMMA;
    starts.push(at);
    lengths.push(part.length);
    at += part.copy(bytes, at);
  }
  return {
    ids: items.map((item) => item.id),
    createdAts: items.map((item) => item.createdAt),
    starts,
    lengths,
    comma,
    // The same bytes keep their piece: its hash and compressed forms.
    piece: previous?.bytes.equals(bytes) ? previous : piece(bytes),
  };
}

function itemsOf(block: Block): Item[] {
  return block.ids.map((id, i) => ({
    id,
    createdAt: block.createdAts[i] as string,
    json: block.piece.bytes.subarray(block.starts[i], (block.starts[i] as number) + (block.lengths[i] as number)),
  }));
}

export function orderedBlocks(entries: Entry[] = [], blockSize = BLOCK_SIZE) {
  let blocks: Block[] = [];
  const blockOf = new Map<number, Block>();

  const index = (block: Block) => {
    for (const id of block.ids) blockOf.set(id, block);
  };
  for (let i = 0; i < entries.length; i += blockSize) {
    const block = build(entries.slice(i, i + blockSize), i > 0);
    blocks.push(block);
    index(block);
  }

  return {
    get size() {
      return blockOf.size;
    },

    has(id: number): boolean {
      return blockOf.has(id);
    },

    /** The blocks' pieces, in list order. */
    pieces(): Piece[] {
      return blocks.map((block) => block.piece);
    },

    /**
     * Puts these entries (new, or changed: in place, or moved if their created_at changed) and takes out
     * these ids. Only the blocks they touch are rebuilt.
     */
    apply(put: Entry[], removed: Iterable<number>): void {
      const editing = new Map<Block, Item[]>();
      const edit = (block: Block) => {
        let items = editing.get(block);
        if (!items) {
          items = itemsOf(block);
          editing.set(block, items);
        }
        return items;
      };
      const takeOut = (id: number) => {
        const block = blockOf.get(id);
        if (!block) return;
        const items = edit(block);
        items.splice(
          items.findIndex((item) => item.id === id),
          1,
        );
        blockOf.delete(id);
      };

      for (const id of removed) takeOut(id);
      const inserted: Entry[] = [];
      for (const entry of put) {
        const block = blockOf.get(entry.id);
        const items = block && edit(block);
        const item = items?.find((candidate) => candidate.id === entry.id);
        if (item && item.createdAt === entry.createdAt) item.json = entry.json;
        else {
          takeOut(entry.id);
          inserted.push(entry);
        }
      }

      // Emptied blocks go; then each new entry goes into the first block whose last entry it precedes.
      blocks = blocks.filter((block) => editing.get(block)?.length !== 0);
      const lastOf = (block: Block): Item => {
        const items = editing.get(block);
        if (items) return items[items.length - 1] as Item;
        const last = block.ids.length - 1;
        return { id: block.ids[last] as number, createdAt: block.createdAts[last] as string, json: '' };
      };
      inserted.sort((a, b) => (before(a, b) ? -1 : 1));
      for (const entry of inserted) {
        let low = 0;
        let high = blocks.length;
        while (low < high) {
          const middle = (low + high) >> 1;
          if (before(entry, lastOf(blocks[middle] as Block))) high = middle;
          else low = middle + 1;
        }
        let block = blocks[Math.min(low, blocks.length - 1)];
        if (!block) {
          block = build([], false);
          blocks.push(block);
        }
        const items = edit(block);
        let at = 0;
        for (let end = items.length; at < end; ) {
          const middle = (at + end) >> 1;
          if (before(entry, items[middle] as Item)) end = middle;
          else at = middle + 1;
        }
        items.splice(at, 0, entry);
      }

      // Rebuild what changed: too long a block is cut in two or more, a short one takes in the next.
      const rebuilt: Block[] = [];
      for (let i = 0; i < blocks.length; i++) {
        const block = blocks[i] as Block;
        let items = editing.get(block);
        const comma = rebuilt.length > 0;
        if (!items) {
          if (block.comma === comma) {
            rebuilt.push(block);
            continue;
          }
          // Now first, or first no more: only its comma changes.
          items = itemsOf(block);
        }
        const next = blocks[i + 1];
        const nextLength = next && (editing.get(next)?.length ?? next.ids.length);
        if (
          next &&
          nextLength !== undefined &&
          items.length < blockSize / 4 &&
          items.length + nextLength <= blockSize * 2
        ) {
          items = [...items, ...(editing.get(next) ?? itemsOf(next))];
          i++;
        }
        const cut = (slice: Item[], previous?: Piece) => {
          const fresh = build(slice, rebuilt.length > 0, previous);
          rebuilt.push(fresh);
          index(fresh);
        };
        let start = 0;
        for (; items.length - start > blockSize * 2; start += blockSize) cut(items.slice(start, start + blockSize));
        cut(items.slice(start), start === 0 ? block.piece : undefined);
      }
      blocks = rebuilt;
    },
  };
}

export type OrderedBlocks = ReturnType<typeof orderedBlocks>;
