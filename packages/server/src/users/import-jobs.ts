/**
 * Big user imports as jobs (issue 29). An import of more rows than IMPORT_JOB_ABOVE is checked at once (the same
 * checks as a small import: refusals, repeats, existing logins, channels), stored in import_jobs and
 * import_job_rows, and answered with its job id; its rows are then handled in the background, a batch of
 * IMPORT_JOB_BATCH rows at a time:
 * - the batch's passwords are hashed on the import's own pool of worker threads (auth/hash-pool.ts), never on
 *   libuv's pool where sign-ins verify theirs, so that sign-ins stay fast while a job runs;
 * - the batch's users, their channels, the rows' groups and the job's progress are then written in one short
 *   transaction: a batch is in or not at all, and a row waiting in the table is a row not yet handled;
 * - a row's password is kept only while it waits, sealed (auth/sealed.ts): once handled, the row holds what
 *   the answer shows.
 *
 * One instance runs a job at a time: it names itself in `runner` and renews `heartbeat_at` while it runs. A job
 * whose runner stopped (its close releases it) or went silent for LEASE_MS is taken up by the next instance that
 * looks (at its start, then every SWEEP_MS): a restart resumes a job where it stopped. Each batch's transaction
 * first checks that the job is still its runner's, so that two instances never handle the same rows; and a row
 * whose login exists by then is reported as existing, never created twice.
 */

import type { UserImportRow } from '@talkgroup/protocol';
import type { ExpressionBuilder, Selectable } from 'kysely';
import type { AuditStore } from '../audit/store.ts';
import type { Transactional } from '../audit/transactional.ts';
import type { Sealer } from '../auth/sealed.ts';
import { slices } from '../db/batch.ts';
import type { Database, Db, ImportJobRowsTable, ImportJobsTable } from '../db/schema.ts';
import {
  addImportedUser,
  type ChannelIds,
  classifyUsers,
  type ImportServices,
  identifierOf,
  passwordOf,
  type Row,
  shown,
  storedData,
  type UserImportOptions,
  type UserImportReport,
  updateImportedUser,
} from './import.ts';
import { jobReport } from './import-job-report.ts';

/** What this part uses of the services (app.ts hands them over). */
export interface ImportJobServices extends ImportServices {
  audit: AuditStore;
  db: Db;
  importSealer: Sealer;
  transaction: Transactional['run'];
}

/** A runner that has not renewed its heartbeat for this long has stopped: another instance may take the job up. */
export const LEASE_MS = 60_000;
/** The fewest rows of a batch (unless IMPORT_JOB_BATCH is lower). */
const MIN_STEP = 10;
/** How often an instance looks for jobs that no runner holds. */
const SWEEP_MS = 20_000;
/** Finished jobs (and their rows) are kept this long for getImportJob, then deleted. */
const KEEP_FINISHED_MS = 7 * 24 * 3600_000;

type JobState = ImportJobsTable['state'];

export interface ImportJobView {
  jobId: number;
  state: JobState;
  done: number;
  total: number;
  /** createMultipleUsers' groups for the whole file, once the job has ended. */
  result: UserImportReport | null;
  error: string | null;
}

interface JobOptions {
  mode?: 'add' | 'update';
  createChannels?: boolean;
  channelIds: Record<string, number>;
}

class LostJob extends Error {}

export function importJobs(
  services: ImportJobServices,
  settings: { instanceId: string; batch: number; onError: (error: unknown, jobId: number) => void },
) {
  const { db } = services;
  const stopping = new AbortController();
  /** The jobs this instance runs now, by id. */
  const running = new Map<number, Promise<void>>();
  const pending = new Set<Promise<unknown>>();
  const now = () => new Date().toISOString();

  /** Keeps a background promise so that `stop` can wait for it (the database closes after). */
  function track<T>(promise: Promise<T>): Promise<T> {
    pending.add(promise);
    void promise.finally(() => pending.delete(promise)).catch(() => {});
    return promise;
  }

  /** A job still to run that no live runner holds: none named, this instance, or one silent for LEASE_MS. */
  const unclaimed = (eb: ExpressionBuilder<Database, 'import_jobs'>) =>
    eb.and([
      eb('state', 'in', ['queued', 'running']),
      eb.or([
        eb('runner', 'is', null),
        eb('runner', '=', settings.instanceId),
        eb('heartbeat_at', 'is', null),
        eb('heartbeat_at', '<', new Date(Date.now() - LEASE_MS).toISOString()),
      ]),
    ]);

  /** Takes the job if no live runner holds it; true when this instance now runs it. */
  async function claim(jobId: number): Promise<boolean> {
    const result = await db
      .updateTable('import_jobs')
      .set({ state: 'running', runner: settings.instanceId, heartbeat_at: now() })
      .where('id', '=', jobId)
      .where(unclaimed)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  function start(jobId: number): void {
    if (stopping.signal.aborted || running.has(jobId)) return;
    const run = track(
      (async () => {
        if (!(await claim(jobId))) return;
        await runJob(jobId);
      })()
        .catch((error) => settings.onError(error, jobId))
        .finally(() => running.delete(jobId)),
    );
    running.set(jobId, run);
  }

  async function runJob(jobId: number): Promise<void> {
    const heartbeat = setInterval(() => {
      void track(
        db
          .updateTable('import_jobs')
          .set({ heartbeat_at: now() })
          .where('id', '=', jobId)
          .where('runner', '=', settings.instanceId)
          .execute(),
      ).catch(() => {});
    }, LEASE_MS / 4);
    heartbeat.unref();
    try {
      const job = await db.selectFrom('import_jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
      if (!job) return;
      const options = JSON.parse(job.options) as JobOptions;
      const channelIds: ChannelIds = new Map(Object.entries(options.channelIds));
      // A small job goes in about twenty steps, so that its progress moves; a big one IMPORT_JOB_BATCH at a time.
      const batch = Math.min(settings.batch, Math.max(MIN_STEP, Math.ceil(job.total / 20)));
      try {
        while (!stopping.signal.aborted) {
          const rows = await db
            .selectFrom('import_job_rows')
            .select(['position', 'action', 'data'])
            .where('job_id', '=', jobId)
            .where('outcome', 'is', null)
            .orderBy('position')
            .limit(batch)
            .execute();
          if (rows.length === 0) {
            await finish(job, 'done', null);
            return;
          }
          await runBatch(job, channelIds, rows);
        }
      } catch (error) {
        // Stopped by a shutdown, or taken up by another instance: the job goes on there.
        if (stopping.signal.aborted || error instanceof LostJob) return;
        settings.onError(error, jobId);
        await finish(job, 'failed', error instanceof Error ? error.message : String(error));
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function runBatch(
    job: Selectable<ImportJobsTable>,
    channelIds: ChannelIds,
    rows: Array<Pick<Selectable<ImportJobRowsTable>, 'position' | 'action' | 'data'>>,
  ): Promise<void> {
    const batch = rows.map((row) => ({
      ...row,
      row: JSON.parse(services.importSealer.open(row.data)) as UserImportRow,
    }));
    // Slow and off the transaction: the hashes, on the import's own workers (a shutdown drops the waiting ones).
    const hashes = await Promise.all(
      batch.map((entry) => {
        const password = passwordOf(entry.row);
        return password === undefined ? undefined : services.hashPool.hash(password, stopping.signal);
      }),
    );
    if (stopping.signal.aborted) return;
    const existing = await services.users.existingIdentifiers(
      batch.filter((entry) => entry.action === 'add').map((entry) => identifierOf(entry.row)),
    );
    // Quick: the batch's writes in one transaction, which first checks that the job is still this instance's.
    await services.transaction(async () => {
      const mine = await db
        .updateTable('import_jobs')
        .set((eb) => ({ done: eb('done', '+', batch.length), heartbeat_at: now() }))
        .where('id', '=', job.id)
        .where('runner', '=', settings.instanceId)
        .where('state', '=', 'running')
        .executeTakeFirst();
      if (Number(mine.numUpdatedRows) !== 1) throw new LostJob();
      const updated: number[] = [];
      const rightsChanged: number[] = [];
      for (const [i, entry] of batch.entries()) {
        let outcome: 'added' | 'alreadyExisting' | 'notAdded' | 'updated';
        let data: Row;
        if (entry.action === 'add') {
          if (existing.has(identifierOf(entry.row))) {
            outcome = 'alreadyExisting';
            data = { ...shown(entry.row), reason: 'exists' };
          } else {
            outcome = 'added';
            data = await addImportedUser(services, entry.row, hashes[i] as string, channelIds);
          }
        } else {
          const done = await updateImportedUser(services, entry.row, hashes[i], channelIds, job.actor_id ?? undefined);
          outcome = done?.outcome ?? 'notAdded';
          data = done?.data ?? { ...shown(entry.row), reason: 'user_gone', field: 'identifier' };
          if (done?.outcome === 'updated') updated.push(Number(done.data.id));
          if (done?.rightsChanged !== undefined) rightsChanged.push(done.rightsChanged);
        }
        await db
          .updateTable('import_job_rows')
          .set({ outcome, data: JSON.stringify(data) })
          .where('job_id', '=', job.id)
          .where('position', '=', entry.position)
          .execute();
      }
      // Delivered once the batch commits: the users lists follow the job as it goes.
      services.events.emit('usersChanged', {});
      if (updated.length > 0) services.events.emit('membershipChanged', { userIds: updated });
      if (rightsChanged.length > 0) services.events.emit('rightsChanged', { userIds: rightsChanged });
    });
  }

  /** The job ends: its state, and in the audit log what it did, as a small import's call is written there. */
  async function finish(job: Selectable<ImportJobsTable>, state: 'done' | 'failed', error: string | null) {
    if (state === 'failed') {
      // Rows that were never handled: not added, and their passwords are no longer kept.
      const waiting = await db
        .selectFrom('import_job_rows')
        .select(['position', 'data'])
        .where('job_id', '=', job.id)
        .where('outcome', 'is', null)
        .execute();
      for (const row of waiting) {
        await db
          .updateTable('import_job_rows')
          .set({
            outcome: 'notAdded',
            data: JSON.stringify({
              ...shown(JSON.parse(services.importSealer.open(row.data))),
              reason: 'import_failed',
            }),
          })
          .where('job_id', '=', job.id)
          .where('position', '=', row.position)
          .execute();
      }
    }
    const ended = await db
      .updateTable('import_jobs')
      .set({ state, error, finished_at: now(), runner: null, heartbeat_at: null })
      .where('id', '=', job.id)
      .where('runner', '=', settings.instanceId)
      .executeTakeFirst();
    if (Number(ended.numUpdatedRows) !== 1 || job.actor_id === null) return;
    const result = await jobReport(db, job.id, job.channels);
    await services.audit.write({
      actorId: job.actor_id,
      action: 'user.import',
      targetType: 'user',
      targetId: null,
      targetName: null,
      changes: Object.fromEntries(
        Object.entries({
          jobId: job.id,
          state,
          added: result.added.map((row) => row.identifier),
          alreadyExisting: result.alreadyExisting.length,
          notAdded: result.notAdded.length,
          ...(result.updated.length > 0 ? { updated: result.updated.map((row) => row.identifier) } : {}),
        }).map(([key, value]) => [key, { before: null, after: value }]),
      ),
      address: null,
      requestId: null,
    });
  }

  async function sweep(): Promise<void> {
    const orphans = await db.selectFrom('import_jobs').select('id').where(unclaimed).orderBy('id').execute();
    for (const { id } of orphans) start(id);
    await db
      .deleteFrom('import_jobs')
      .where('state', 'in', ['done', 'failed'])
      .where('finished_at', '<', new Date(Date.now() - KEEP_FINISHED_MS).toISOString())
      .execute();
  }

  const sweeping = () => {
    if (!stopping.signal.aborted) void track(sweep()).catch((error) => settings.onError(error, 0));
  };
  sweeping();
  const sweeper = setInterval(sweeping, SWEEP_MS);
  sweeper.unref();

  return {
    /**
     * Checks the rows and stores them as a job (in one transaction), then starts it: its id and the groups the
     * checks already settled (refused, repeated, existing rows).
     */
    async enqueue(rawRows: Array<Record<string, unknown>>, options: UserImportOptions) {
      const { entries, channelIds, channels } = await classifyUsers(services, rawRows, options);
      const settled = entries.filter((entry) => entry.action === 'report').length;
      const jobOptions: JobOptions = {
        ...(options.mode ? { mode: options.mode } : {}),
        ...(options.createChannels ? { createChannels: true } : {}),
        channelIds: Object.fromEntries(channelIds),
      };
      // Sealed before the transaction, the event loop turning between slices (issue 57).
      const data = await storedData(entries, services.importSealer);
      const jobId = await services.transaction(async () => {
        const job = await db
          .insertInto('import_jobs')
          .values({
            kind: 'users',
            actor_id: options.actorId ?? null,
            state: 'queued',
            total: entries.length,
            done: settled,
            options: JSON.stringify(jobOptions),
            channels: JSON.stringify(channels),
            error: null,
            runner: null,
            heartbeat_at: null,
            created_at: now(),
            finished_at: null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const rows = entries.map((entry, position) => ({
          job_id: job.id,
          position,
          action: entry.action,
          outcome: entry.action === 'report' ? entry.outcome : null,
          data: data[position],
        }));
        for (const slice of slices(rows, 100)) await db.insertInto('import_job_rows').values(slice).execute();
        return job.id;
      });
      const report: UserImportReport = { added: [], alreadyExisting: [], notAdded: [], updated: [], ...channels };
      for (const entry of entries) if (entry.action === 'report') report[entry.outcome].push(entry.data);
      start(jobId);
      return { jobId, state: 'queued' as const, total: entries.length, done: settled, report };
    },

    /** How a job goes; undefined for an unknown id. */
    async view(jobId: number): Promise<ImportJobView | undefined> {
      const job = await db.selectFrom('import_jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
      if (!job) return undefined;
      const ended = job.state === 'done' || job.state === 'failed';
      return {
        jobId: job.id,
        state: job.state,
        done: job.done,
        total: job.total,
        result: ended ? await jobReport(db, job.id, job.channels) : null,
        error: job.error,
      };
    },

    /** Stops this instance's jobs after their current batch's writes and lets another instance take them up. */
    async stop(): Promise<void> {
      stopping.abort();
      clearInterval(sweeper);
      while (pending.size > 0) await Promise.allSettled([...pending]);
      await db
        .updateTable('import_jobs')
        .set({ runner: null, heartbeat_at: null })
        .where('runner', '=', settings.instanceId)
        .where('state', 'in', ['queued', 'running'])
        .execute();
    },
  };
}

export type ImportJobs = ReturnType<typeof importJobs>;
