/** An import job's answer (import-jobs.ts): the groups of a small import's answer, the rows in the file's order. */
import type { Db } from '../db/schema.ts';
import type { UserImportReport } from './import.ts';

/** The groups of the rows handled so far; `channels` is the job's stored channel report (JSON). */
export async function jobReport(db: Db, jobId: number, channels: string): Promise<UserImportReport> {
  const report: UserImportReport = {
    added: [],
    alreadyExisting: [],
    notAdded: [],
    updated: [],
    ...(JSON.parse(channels) as Pick<UserImportReport, 'unknownChannels' | 'createdChannels'>),
  };
  const rows = await db
    .selectFrom('import_job_rows')
    .select(['outcome', 'data'])
    .where('job_id', '=', jobId)
    .where('outcome', 'is not', null)
    .orderBy('position')
    .execute();
  for (const row of rows) if (row.outcome) report[row.outcome].push(JSON.parse(row.data));
  return report;
}
