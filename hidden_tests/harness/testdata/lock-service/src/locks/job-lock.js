export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      const owner = await store.get(`lock:${jobId}`);
      if (owner) return null;
      await store.set(`lock:${jobId}`, workerId, { ttlMs });
      return workerId;
    },
    async release(jobId) { await store.delete(`lock:${jobId}`); },
  };
}
