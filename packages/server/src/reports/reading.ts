/** What a report reader answers (reader.ts picks the reader, reader-threads.ts is SQLite's). */
import type { ReportScope } from './scope.ts';
import type { ReportMeasures } from './store.ts';

/** A report's measures, and the thread that computed them (0: the main thread). */
export interface ReadReport {
  measures: ReportMeasures;
  threadId: number;
}

export interface ReportReader {
  /** 'threads' (SQLite's worker threads), 'pool' (PostgreSQL's own pool) or 'main' (SQLite in memory). */
  where: 'threads' | 'pool' | 'main';
  /** Throws 503 `report_reader_failed` when the thread reading it died. */
  read(scope: ReportScope): Promise<ReadReport>;
  close(): Promise<void>;
}
