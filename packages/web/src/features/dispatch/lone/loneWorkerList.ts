/** The lone workers' list as the console keeps it (issue 70): a pushed change written into the list read. */
import type { LoneWorker, LoneWorkerChange } from '@talkgroup/protocol';

export type LoneWorkersPage = { success: boolean; res: LoneWorker[] };

/** The worker replaced or added, or gone once its lone work stopped (`worker` null); nothing before a first read. */
export function withChange(page: LoneWorkersPage | undefined, change: LoneWorkerChange): LoneWorkersPage | undefined {
  if (!page) return page;
  const others = page.res.filter((worker) => worker.userId !== change.userId);
  return { ...page, res: change.worker ? [...others, change.worker] : others };
}
