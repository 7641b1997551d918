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
 * 64 users (about 47 KB of JSON) per block: a change builds, hashes and compresses that much again. Bigger
 * blocks compress a little better (gzip of 100,000 users: 4.8 MB at 128, 5.3 MB at 64) but cost more when
 * many users change between two answers (1% of them: 0.8 s at 128, 0.44 s at 64; bench/lists).
 */
const BLOCK_SIZE = 64;

interface Block {
  ids: number[];
  createdAts: string[];
  /** Where each entry's JSON starts in piece.bytes, and its length. */
  starts: number[];
  lengths: number[];
  comma: boolean;
  piece: Piece;
}

/** An entry while its block is being rebuilt: its new JSON, or where its bytes are in an old block. */
interface Item {
  id: number;
  createdAt: string;
  json?: string;
  from?: Buffer;
  start: number;
  length: number;
}

/** Does a come before b in the list? */
function before(a: { createdAt: string; id: number }, b: { createdAt: string; id: number }): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);
}

const COMMA = 0x2c;

/** The block these items make. Kept entries that follow each other in an old block are copied in one go. */
function build(items: Item[], comma: boolean, previous?: Piece): Block {
  let size = (comma ? 1 : 0) + Math.max(0, items.length - 1);
  for (const item of items) size += item.length;
  const bytes = Buffer.allocUnsafeSlow(size);
  const starts: number[] = [];
  const lengths: number[] = [];
  let at = 0;
  // The run of old bytes not copied yet, and where it goes.
  let run: { from: Buffer; start: number; end: number; to: number } | undefined;
  const flush = () => {
    if (run) run.from.copy(bytes, run.to, run.start, run.end);
    run = undefined;
  };
  for (const [i, item] of items.entries()) {
    const separated = i > 0 || comma;
    if (item.from && run && separated && item.from === run.from && item.start === run.end + 1) {
      run.end = item.start + item.length;
    } else {
      flush();
      if (separated) bytes[at] = COMMA;
      if (item.from)
        run = { from: item.from, start: item.start, end: item.start + item.length, to: at + (separated ? 1 : 0) };
    }
    if (separated) at++;
    starts.push(at);
    lengths.push(item.length);
    if (item.json !== undefined && !item.from) bytes.write(item.json, at);
    at += item.length;
  }
  flush();
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

const itemOf = (entry: Entry): Item => ({ ...entry, start: 0, length: Buffer.byteLength(entry.json) });

function itemsOf(block: Block): Item[] {
  return block.ids.map((id, i) => ({
    id,
    createdAt: block.createdAts[i] as string,
    from: block.piece.bytes,
    start: block.starts[i] as number,
    length: block.lengths[i] as number,
  }));
}

export function orderedBlocks(entries: Entry[] = [], blockSize = BLOCK_SIZE) {
  let blocks: Block[] = [];
  const blockOf = new Map<number, Block>();

  const index = (block: Block) => {
    for (const id of block.ids) blockOf.set(id, block);
  };
  for (let i = 0; i < entries.length; i += blockSize) {
    const block = build(entries.slice(i, i + blockSize).map(itemOf), i > 0);
    blocks.push(block);
    index(block);
  }

  return {
    get size() {
      return blockOf.size;
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
        const at = items ? items.findIndex((candidate) => candidate.id === entry.id) : -1;
        if (items && items[at]?.createdAt === entry.createdAt) items[at] = itemOf(entry);
        else {
          takeOut(entry.id);
          inserted.push(entry);
        }
      }

      // Emptied blocks go; then each new entry goes into the first block whose last entry it precedes.
      blocks = blocks.filter((block) => editing.get(block)?.length !== 0);
      const lastOf = (block: Block): { id: number; createdAt: string } => {
        const items = editing.get(block);
        if (items) return items[items.length - 1] as Item;
        const last = block.ids.length - 1;
        return { id: block.ids[last] as number, createdAt: block.createdAts[last] as string };
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
        items.splice(at, 0, itemOf(entry));
        blockOf.set(entry.id, block);
      }

      // Rebuild what changed, in place: too long a block is cut in two or more, a short one takes in the next.
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
          const taken = editing.get(next) ?? itemsOf(next);
          items = [...items, ...taken];
          for (const item of taken) blockOf.set(item.id, block);
          i++;
        }
        let start = 0;
        for (; items.length - start > blockSize * 2; start += blockSize) {
          const cut = build(items.slice(start, start + blockSize), rebuilt.length > 0);
          rebuilt.push(cut);
          index(cut);
        }
        const rest = build(start === 0 ? items : items.slice(start), rebuilt.length > 0, block.piece);
        Object.assign(block, rest);
        rebuilt.push(block);
        if (start > 0) index(block);
      }
      blocks = rebuilt;
    },
  };
}

export type OrderedBlocks = ReturnType<typeof orderedBlocks>;
