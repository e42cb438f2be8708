// The atomic claim after a wait longer than the scenario's horizon (120 s):
// every worker is still asleep when virtual time runs out.
import { setTimeout as sleep } from 'node:timers/promises';
let n = 0;
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      await sleep(200_000);
      const token = `${workerId}:${++n}`;
      return (await store.setIfAbsent(`lock:${jobId}`, token, { ttlMs })) ? token : null;
    },
    async release(jobId, token) { await store.compareAndDelete(`lock:${jobId}`, token); },
  };
}
