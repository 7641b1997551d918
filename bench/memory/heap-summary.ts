/**
 * Sums a V8 heap snapshot (bench:memory's `--snapshots`, or any `.heapsnapshot`) by what holds the memory: the
 * self size of its nodes by V8's node type, the constructors whose objects weigh most, and the largest strings
 * (mostly modules' source text, which V8 keeps for Function.prototype.toString).
 *
 *   node bench/memory/heap-summary.ts a.heapsnapshot [b.heapsnapshot ...]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const MB = 2 ** 20;
const TOP = Number(process.env.TOP ?? 15);

function summarise(file: string): void {
  const heap = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const fields = heap.snapshot.meta.node_fields;
  const types = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const at = { type: fields.indexOf('type'), name: fields.indexOf('name'), size: fields.indexOf('self_size') };
  const byType = new Map<string, number>();
  const byConstructor = new Map<string, { size: number; count: number }>();
  const strings: Array<{ size: number; text: string }> = [];
  let total = 0;
  for (let i = 0; i < heap.nodes.length; i += width) {
    const type = types[heap.nodes[i + at.type]];
    const size = heap.nodes[i + at.size];
    const name = heap.strings[heap.nodes[i + at.name]];
    total += size;
    byType.set(type, (byType.get(type) ?? 0) + size);
    if (type === 'object' || type === 'closure' || type === 'array') {
      const key = `${type === 'object' ? '' : `(${type}) `}${name}`;
      const entry = byConstructor.get(key) ?? { size: 0, count: 0 };
      entry.size += size;
      entry.count += 1;
      byConstructor.set(key, entry);
    }
    if (type === 'string' && size > 32 * 1024) strings.push({ size, text: name });
  }
  console.log(`\n${path.basename(file)}: ${(total / MB).toFixed(1)} MB in the heap`);
  console.log('  by node type:');
  for (const [type, size] of [...byType].sort((a, b) => b[1] - a[1]))
    if (size > MB / 10) console.log(`    ${type.padEnd(22)} ${(size / MB).toFixed(2).padStart(7)} MB`);
  console.log(`  the ${TOP} heaviest constructors (self size):`);
  for (const [name, { size, count }] of [...byConstructor].sort((a, b) => b[1].size - a[1].size).slice(0, TOP))
    console.log(
      `    ${name.slice(0, 48).padEnd(48)} ${(size / MB).toFixed(2).padStart(7)} MB  ${String(count).padStart(8)} objects`,
    );
  console.log(`  the ${TOP} largest strings:`);
  for (const { size, text } of strings.sort((a, b) => b.size - a.size).slice(0, TOP))
    console.log(`    ${(size / MB).toFixed(2).padStart(5)} MB  ${JSON.stringify(text.slice(0, 90))}`);
}

for (const file of process.argv.slice(2)) summarise(file);
