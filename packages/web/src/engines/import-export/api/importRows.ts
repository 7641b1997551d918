/**
 * Sends an import's rows in chunks of IMPORT_CHUNK (createMultipleUsers or createMultipleChannels, spec section
 * 7): each chunk is one request, so the page and its progress bar stay responsive. A failure before any chunk went
 * in fails the import; a later one keeps what went in and returns the failure beside the report. Once anything
 * went in, the directory reloads (without holding up the result).
 *
 * A user file of more than IMPORT_JOB_ABOVE_DEFAULT rows goes whole, in one call (issue 29): the server makes it a
 * job and answers at once with its id, which the dialog then follows (getImportJob) while the server hashes.
 */
import {
  CreateMultipleChannels,
  CreateMultipleUsers,
  IMPORT_JOB_ABOVE_DEFAULT,
  USER_IMPORT_MAX_ROWS,
} from '@talkgroup/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { refreshDirectory } from '../../../api/directory.ts';
import {
  addToReport,
  chunks,
  emptyReport,
  IMPORT_CHUNK,
  type ImportKind,
  type ImportOptions,
  type Report,
} from '../import-rows.ts';
import type { SheetRow } from '../workbook.ts';

export interface ImportInput {
  kind: ImportKind;
  rows: SheetRow[];
  options?: ImportOptions;
  /** Called after each chunk with the number of rows sent so far. */
  onProgress?: (done: number) => void;
}

/** A user import the server runs as a job: its id and how far it is. */
export interface StartedJob {
  jobId: number;
  total: number;
  done: number;
}

export interface Imported {
  report: Report;
  /** Set when a chunk failed after others went in. */
  failure?: unknown;
  /** Set when the server made the import a job: `report` then holds only the rows its checks settled. */
  job?: StartedJob;
}

const userBody = (rows: SheetRow[], options: ImportOptions) => ({
  userData: rows,
  ...(options.update ? { mode: 'update' as const } : {}),
  ...(options.createChannels ? { createChannels: true } : {}),
});

async function send(kind: ImportKind, rows: SheetRow[], options: ImportOptions = {}): Promise<Report> {
  if (kind === 'users') return (await api(CreateMultipleUsers, userBody(rows, options))).createdUsers;
  return (await api(CreateMultipleChannels, { channelData: rows })).channelsCreated;
}

export async function importRows({ kind, rows, options = {}, onProgress }: ImportInput): Promise<Imported> {
  if (kind === 'users' && rows.length > IMPORT_JOB_ABOVE_DEFAULT && rows.length <= USER_IMPORT_MAX_ROWS) {
    const answer = await api(CreateMultipleUsers, userBody(rows, options));
    if (answer.jobId !== undefined)
      return {
        report: answer.createdUsers,
        job: { jobId: answer.jobId, total: answer.total ?? rows.length, done: answer.done ?? 0 },
      };
    // A server that imports this many at once (its IMPORT_JOB_ABOVE is higher) answered with the users created.
    onProgress?.(rows.length);
    return { report: answer.createdUsers };
  }
  let report = emptyReport();
  let done = 0;
  try {
    for (const chunk of chunks(rows, IMPORT_CHUNK)) {
      report = addToReport(report, await send(kind, chunk, options));
      done += chunk.length;
      onProgress?.(done);
    }
  } catch (error) {
    if (done === 0) throw error;
    return { report, failure: error };
  }
  return { report };
}

export function useImportRows() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importRows,
    onSuccess: () => {
      void refreshDirectory(queryClient);
    },
  });
}
