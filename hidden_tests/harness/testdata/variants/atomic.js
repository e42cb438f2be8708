let n = 0;
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      const token = `${workerId}:${++n}`;
      return (await store.setIfAbsent(`lock:${jobId}`, token, { ttlMs })) ? token : null;
    },
    async release(jobId, token) { await store.compareAndDelete(`lock:${jobId}`, token); },
  };
}
