/**
 * Prints the JavaScript a browser downloads before /signin can paint: the entry chunk and every chunk it
 * imports statically (lazy pages excluded), raw and gzipped. Fails the build above the budget, so that a
 * heavy import in the sign-in path is caught where it is added.
 */
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

interface Options {
  /** Gzipped budget in KB (1 KB = 1024 bytes). */
  budgetKb: number;
}

interface ChunkLike {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  imports: string[];
  modules: Record<string, { renderedLength: number }>;
}

/** 'node_modules/@mui/material/Button/Button.js' -> '@mui/material'; app files -> 'src/<folder>'. */
function ownerOf(id: string): string {
  const inModules = id.split('node_modules/').pop() ?? id;
  if (inModules !== id) {
    const parts = inModules.split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const inSrc = id.split('/src/');
  return inSrc.length > 1
    ? `${id.includes('packages/protocol') ? 'protocol' : 'web'}/src/${inSrc[1].split('/')[0]}`
    : id;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function initialSizeReport({ budgetKb }: Options): Plugin {
  let report: { text: string; over: boolean } | undefined;
  return {
    name: 'talkgroup-initial-size',
    apply: 'build',
    // Measured when the files are written, printed last so that it ends the build's output.
    closeBundle() {
      if (!report) return;
      console.log(report.text);
      if (report.over) throw new Error(report.text.trim().split('\n').pop());
    },
    writeBundle(_options, bundle) {
      const chunks = new Map<string, ChunkLike>();
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') chunks.set(item.fileName, item as unknown as ChunkLike);
      }
      const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
      if (!entry) return;
      const initial = new Set<string>();
      const visit = (fileName: string) => {
        if (initial.has(fileName)) return;
        initial.add(fileName);
        for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
      };
      visit(entry.fileName);

      let raw = 0;
      let gzipped = 0;
      const lines: string[] = [];
      for (const fileName of initial) {
        const code = chunks.get(fileName)?.code ?? '';
        const size = Buffer.byteLength(code);
        const gz = gzipSync(code, { level: 9 }).length;
        raw += size;
        gzipped += gz;
        lines.push(`  ${fileName.padEnd(44)} ${kb(size).padStart(10)} ${kb(gz).padStart(10)} gzip`);
      }
      const verdict = gzipped <= budgetKb * 1024 ? 'within' : 'OVER';
      const summary = `Initial JS of /signin: ${initial.size} chunk(s), ${kb(raw)} raw, ${kb(gzipped)} gzipped (${verdict} the ${budgetKb} KB budget)`;
      let detail = '';
      if (process.env.SIZE_DETAIL) {
        const owners = new Map<string, number>();
        for (const fileName of initial) {
          for (const [id, info] of Object.entries(chunks.get(fileName)?.modules ?? {})) {
            owners.set(ownerOf(id), (owners.get(ownerOf(id)) ?? 0) + info.renderedLength);
          }
        }
        const top = [...owners].sort((a, b) => b[1] - a[1]).slice(0, 25);
        detail = `${top.map(([owner, size]) => `  ${owner.padEnd(44)} ${kb(size).padStart(10)} before minifying`).join('\n')}\n`;
      }
      report = { text: `\n${lines.join('\n')}\n${detail}${summary}\n`, over: verdict === 'OVER' };
    },
  };
}
