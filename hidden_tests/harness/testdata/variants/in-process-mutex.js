// Check-then-set behind a module-level mutex: safe within one process only.
const held = new Set();
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      if (held.has(jobId)) return null;
      held.add(jobId);
      const owner = await store.get(`lock:${jobId}`);
      if (owner) { held.delete(jobId); return null; }
      await store.set(`lock:${jobId}`, workerId, { ttlMs });
      return workerId;
    },
    async release(jobId) { held.delete(jobId); await store.delete(`lock:${jobId}`); },
  };
}
