// The atomic claim, tried again once after a back-off of random length when it
// is taken: its draws only set how long to wait.
import { setTimeout as sleep } from 'node:timers/promises';
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      if (await store.setIfAbsent(`lock:${jobId}`, workerId, { ttlMs })) return workerId;
      await sleep(100 + Math.floor(Math.random() * 50));
      return (await store.setIfAbsent(`lock:${jobId}`, workerId, { ttlMs })) ? workerId : null;
    },
    async release(jobId) { await store.compareAndDelete(`lock:${jobId}`, workerId); },
  };
}
