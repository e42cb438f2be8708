// The atomic lock, importing its helpers lazily: every worker's graph must keep
// its own dynamic-import callback.
export function createLock({ store, workerId, ttlMs }) {
  let n = 0;
  return {
    async acquire(jobId) {
      const { format } = await import('node:util');
      const token = format('%s:%d', workerId, ++n);
      return (await store.setIfAbsent(`lock:${jobId}`, token, { ttlMs })) ? token : null;
    },
    async release(jobId, token) { await store.compareAndDelete(`lock:${jobId}`, token); },
  };
}
