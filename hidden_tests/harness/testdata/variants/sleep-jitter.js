// Check, sleep a worker-specific time, check again, then set: the second worker
// wakes while the first one's write is still on its way to the store.
import { setTimeout as sleep } from 'node:timers/promises';
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      if (await store.get(`lock:${jobId}`)) return null;
      await sleep(workerId === 'blue' ? 50 : 80);
      if (await store.get(`lock:${jobId}`)) return null;
      await store.set(`lock:${jobId}`, workerId, { ttlMs });
      return workerId;
    },
    async release(jobId) { await store.delete(`lock:${jobId}`); },
  };
}
