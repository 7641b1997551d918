/**
 * A worker thread that runs one of the server's TypeScript modules (the report readers, the SIP relay's threads;
 * issue 57). Hooks are a thread's own, so the thread first registers stripped-sources.js's, which hands Node the
 * stripped JavaScript that `npm start` wrote (the thread never loads Node's TypeScript stripper, as the main
 * thread does not), then imports its entry. Unref'd: a thread never keeps a stopping process alive.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

const THREAD_SOURCE = `
const { workerData } = require('node:worker_threads');
import(workerData.hooks).then((hooks) => {
  hooks.useStrippedSources();
  return import(workerData.entry);
});`;
const HOOKS_URL = new URL('../../stripped-sources.js', import.meta.url).href;

/** Starts `entry` (a module URL) on a thread of its own; `workerData` reaches it beside the loader's. */
export function startServerThread(
  entry: URL,
  workerData: Record<string, unknown> = {},
  options: Pick<WorkerOptions, 'resourceLimits'> = {},
): Worker {
  const worker = new Worker(THREAD_SOURCE, {
    ...options,
    eval: true,
    workerData: { ...workerData, hooks: HOOKS_URL, entry: entry.href },
  });
  worker.unref();
  return worker;
}
