/**
 * Trails: a user's kept positions over a period (getPositionHistory), refreshed while shown so that the line
 * grows as the member moves; and the export of positions as a file (exportPositions, a download).
 */
import { GetPositionHistory, POSITION_EXPORT_PATH, type PositionExportFormat } from '@talkgroup/protocol';
import { useQueries } from '@tanstack/react-query';
import { api } from '../../../api/client.ts';
import { downloadFile } from '../../../api/download.ts';
import { callKey } from '../../../api/queries.ts';

const REFRESH_MS = 30_000;

/** The trails of these users since `from` (up to now), one query each; `enabled` false for users not shown. */
export function useTrails(userIds: number[], from: string, enabled: (userId: number) => boolean) {
  return useQueries({
    queries: userIds.map((userId) => {
      const body = { userId, from };
      return {
        queryKey: callKey(GetPositionHistory, body),
        queryFn: ({ signal }: { signal: AbortSignal }) => api(GetPositionHistory, body, { signal }),
        enabled: enabled(userId),
        refetchInterval: REFRESH_MS,
        staleTime: REFRESH_MS / 2,
      };
    }),
  });
}

export interface PositionExportRequest {
  userIds?: number[];
  channelId?: number;
  from: string;
  to: string;
  format: PositionExportFormat;
}

/** Asks the server for the file and hands it to the browser as a download. */
export function downloadPositions(body: PositionExportRequest): Promise<void> {
  return downloadFile(POSITION_EXPORT_PATH, body, `positions.${body.format}`);
}
