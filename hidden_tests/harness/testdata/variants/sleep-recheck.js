// Check, sleep, check again, then set: time is virtual, so both workers wake together.
import { setTimeout as sleep } from 'node:timers/promises';
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      if (await store.get(`lock:${jobId}`)) return null;
      await sleep(50);
      if (await store.get(`lock:${jobId}`)) return null;
      await store.set(`lock:${jobId}`, workerId, { ttlMs });
      return workerId;
    },
    async release(jobId) { await store.delete(`lock:${jobId}`); },
  };
}
