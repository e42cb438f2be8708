// The atomic claim, retried a few times before giving up: slower, still correct.
import { setTimeout as sleep } from 'node:timers/promises';
let n = 0;
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      const token = `${workerId}:${++n}`;
      for (let attempt = 0; attempt < 40; attempt++) {
        if (await store.setIfAbsent(`lock:${jobId}`, token, { ttlMs })) return token;
        await sleep(25);
      }
      return null;
    },
    async release(jobId, token) { await store.compareAndDelete(`lock:${jobId}`, token); },
  };
}
