/**
 * Sends an import's rows in chunks of IMPORT_CHUNK (createMultipleUsers or createMultipleChannels, spec section
 * 7): each chunk is one request, so the page and its progress bar stay responsive. A failure before any chunk went
 * in fails the import; a later one keeps what went in and returns the failure beside the report. Once anything
 * went in, the directory reloads (without holding up the result).
 */
import { CreateMultipleChannels, CreateMultipleUsers } from '@talkgroup/protocol';
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

export interface Imported {
  report: Report;
  /** Set when a chunk failed after others went in. */
  failure?: unknown;
}

async function send(kind: ImportKind, rows: SheetRow[], options: ImportOptions = {}): Promise<Report> {
  if (kind === 'users') {
    const body = {
      userData: rows,
      ...(options.update ? { mode: 'update' as const } : {}),
      ...(options.createChannels ? { createChannels: true } : {}),
    };
    return (await api(CreateMultipleUsers, body)).createdUsers;
  }
  return (await api(CreateMultipleChannels, { channelData: rows })).channelsCreated;
}

export async function importRows({ kind, rows, options, onProgress }: ImportInput): Promise<Imported> {
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
