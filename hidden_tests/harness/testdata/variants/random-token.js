// The atomic lock with random tokens and a timestamp: randomness and time are virtual.
import { randomUUID } from 'node:crypto';
export function createLock({ store, ttlMs }) {
  return {
    async acquire(jobId) {
      const token = `${randomUUID()}@${Date.now()}:${Math.random()}`;
      return (await store.setIfAbsent(`lock:${jobId}`, token, { ttlMs })) ? token : null;
    },
    async release(jobId, token) { await store.compareAndDelete(`lock:${jobId}`, token); },
  };
}
