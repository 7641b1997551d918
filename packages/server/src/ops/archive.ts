/**
 * The backup archive: a zip (yazl writes it) of the SQLite copy, the uploaded files, the voice recordings,
 * the signing key and a manifest. Read back by a small reader of our own (central directory, stored or
 * deflated entries): restore needs nothing else.
 */
import { createWriteStream, readFileSync, renameSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import yazl from 'yazl';

export interface ArchiveEntry {
  name: string;
  /** A file on disk, or bytes. */
  file?: string;
  bytes?: Buffer;
}

/** Writes the archive next to `target` first, then renames it: a crash never leaves half an archive there. */
export function writeArchive(target: string, entries: ArchiveEntry[]): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    if (entry.file) zip.addFile(entry.file, entry.name);
    else zip.addBuffer(entry.bytes ?? Buffer.alloc(0), entry.name);
  }
  const partial = `${target}.partial`;
  return new Promise((resolve, reject) => {
    const out = createWriteStream(partial, { mode: 0o600 });
    out.on('error', reject);
    out.on('close', () => {
      try {
        renameSync(partial, target);
        resolve();
      } catch (error) {
        reject(error);
      }
    });
    zip.outputStream.on('error', reject).pipe(out);
    zip.end();
  });
}

/** A name safe to write under a folder: relative, no `..`, no drive or backslash tricks. */
function safeName(name: string): boolean {
  return (
    name !== '' &&
    !name.startsWith('/') &&
    !name.includes('\\') &&
    !name.split('/').some((part) => part === '..' || part === '')
  );
}

export function readArchive(file: string): Map<string, Buffer> {
  const data = readFileSync(file);
  let end = -1;
  for (let i = data.length - 22; i >= Math.max(0, data.length - 65_557); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error(`${file} is not a Talkgroup backup (no zip directory found).`);
  const count = data.readUInt16LE(end + 10);
  let at = data.readUInt32LE(end + 16);
  const entries = new Map<string, Buffer>();
  for (let n = 0; n < count; n++) {
    if (data.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: damaged zip directory.`);
    const method = data.readUInt16LE(at + 10);
    const compressedSize = data.readUInt32LE(at + 20);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const local = data.readUInt32LE(at + 42);
    const name = data.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    at += 46 + nameLength + extraLength + commentLength;
    if (name.endsWith('/')) continue;
    if (!safeName(name)) throw new Error(`${file}: refused entry name "${name}".`);
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    const raw = data.subarray(start, start + compressedSize);
    if (method === 0) entries.set(name, Buffer.from(raw));
    else if (method === 8) entries.set(name, inflateRawSync(raw));
    else throw new Error(`${file}: entry "${name}" uses an unknown compression.`);
  }
  return entries;
}
