/** Pieces of the contract that several of its files use. */
import { z } from 'zod';

/** A cell of an imported spreadsheet row (users.ts, channels.ts). */
export const ImportCell = z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]).optional();

/** An ISO 8601 moment with its offset, read as a Date (voice.ts, positions.ts, geofences.ts). */
export const IsoTime = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 time, like 2026-01-31T08:00:00.000Z' })
  .transform((value) => new Date(value));
