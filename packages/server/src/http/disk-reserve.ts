/**
 * The database's room on the disk (issue 69): every upload (a chat image, a voice transmission, a video's
 * recording) is refused with 507 `disk_reserve` while the disk of DATA_DIR has less than DISK_RESERVE_MB free for
 * this process (`statfs`'s blocks available to it), so that a flood of files never leaves SQLite, its journal and
 * the server's other writes without room. Asked before a byte of the upload is read; a refusal is logged once a
 * minute at most, for the operator.
 */
import { statfs } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import { HttpError } from './errors.ts';

export type DiskReserve = (log?: Pick<FastifyBaseLogger, 'warn'>) => Promise<void>;

const LOG_EVERY_MS = 60_000;

export function diskReserve(dataDir: string, reserveBytes: number): DiskReserve {
  let loggedAt = Number.NEGATIVE_INFINITY;
  return async function check(log) {
    if (reserveBytes <= 0) return;
    const disk = await statfs(dataDir);
    const freeBytes = Number(disk.bavail) * Number(disk.bsize);
    if (freeBytes >= reserveBytes) return;
    if (Date.now() - loggedAt >= LOG_EVERY_MS) {
      loggedAt = Date.now();
      log?.warn({ dataDir, freeBytes, reserveBytes }, 'DATA_DIR is under DISK_RESERVE_MB: uploads are refused');
    }
    throw new HttpError(507, 'disk_reserve');
  };
}
