/** Pieces of the contract that several of its files use. */
import { z } from 'zod';

/** A cell of an imported spreadsheet row (users.ts, channels.ts). */
export const ImportCell = z.union([z.string().max(1024), z.number(), z.boolean(), z.null()]).optional();
