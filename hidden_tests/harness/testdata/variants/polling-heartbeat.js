// The polling claim of polling.js, with a heartbeat timer of the same period
// beside it while it polls (HEARTBEAT_MS, which the ties test rewrites): both
// timers fall due at the same moments.
import { setTimeout as sleep } from 'node:timers/promises';
const HEARTBEAT_MS = 25;
let n = 0;
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      const token = `${workerId}:${++n}`;
      const beat = setInterval(() => {}, HEARTBEAT_MS);
      try {
        for (let attempt = 0; attempt < 40; attempt++) {
          if (await store.setIfAbsent(`lock:${jobId}`, token, { ttlMs })) return token;
          await sleep(25);
        }
        return null;
      } finally {
        clearInterval(beat);
      }
    },
    async release(jobId, token) { await store.compareAndDelete(`lock:${jobId}`, token); },
  };
}
