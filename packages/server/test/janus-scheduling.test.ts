/**
 * Janus's scheduling (issue 37): started with `realtime`, as deploy/janus's systemd drop-in runs it, its
 * threads are scheduled round-robin at that priority where this process may give it (root here and on CI);
 * elsewhere it runs as any process and says so. Without the option it is an ordinary process. The kernel's own
 * word is read: the policy and the priority in /proc/PID/stat (fields 40 and 41).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { JANUS_REALTIME_PRIORITY, type MediaProcess, realtimeAllowed, startJanus } from '../src/ops/dev-media.ts';
import { portBlock } from './janus-harness.ts';
import { freePort } from './process-harness.ts';

const SCHED_OTHER = 0;
const SCHED_RR = 2;

/** The policy and real-time priority of each of the process's threads. */
function threadsOf(pid: number): Array<{ policy: number; priority: number }> {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The fields after the command's closing parenthesis, from field 3 on.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { priority: Number(fields[40 - 3]), policy: Number(fields[41 - 3]) };
  });
}

describe("Janus's scheduling", () => {
  let janus: MediaProcess | undefined;
  afterEach(async () => {
    await janus?.stop();
    janus = undefined;
  });

  it('is real-time, at the drop-in priority, where this process may give it', async () => {
    janus = await startJanus({ wsPort: await freePort(), rtpPorts: portBlock(), realtime: JANUS_REALTIME_PRIORITY });
    const threads = threadsOf(janus.pid);
    expect(threads.length).toBeGreaterThan(1);
    if (realtimeAllowed(JANUS_REALTIME_PRIORITY)) {
      expect(janus.scheduling).toBe(`real-time (SCHED_RR ${JANUS_REALTIME_PRIORITY})`);
      for (const thread of threads) expect(thread).toEqual({ policy: SCHED_RR, priority: JANUS_REALTIME_PRIORITY });
    } else {
      expect(janus.scheduling).toBe('ordinary');
      for (const thread of threads) expect(thread.policy).toBe(SCHED_OTHER);
    }
  });

  it('is ordinary without the option', async () => {
    janus = await startJanus({ wsPort: await freePort(), rtpPorts: portBlock() });
    expect(janus.scheduling).toBe('ordinary');
    for (const thread of threadsOf(janus.pid)) expect(thread.policy).toBe(SCHED_OTHER);
  });

  it("drop-in's priority is the one the bench and `npm run janus` ask for", () => {
    const dropIn = readFileSync(
      new URL('../../../deploy/janus/janus.service.d/talkgroup.conf', import.meta.url),
      'utf8',
    );
    expect(dropIn).toMatch(/^CPUSchedulingPolicy=rr$/m);
    expect(dropIn).toMatch(new RegExp(`^CPUSchedulingPriority=${JANUS_REALTIME_PRIORITY}$`, 'm'));
  });
});
