// The atomic claim, but each acquire first blocks its thread for a quarter of a second
// of wall-clock time without computing: slow, not endless.
let n = 0;
export function createLock({ store, workerId, ttlMs }) {
  return {
    async acquire(jobId) {
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
      const token = `${workerId}:${++n}`;
      return (await store.setIfAbsent(`lock:${jobId}`, token, { ttlMs })) ? token : null;
    },
    async release(jobId, token) { await store.compareAndDelete(`lock:${jobId}`, token); },
  };
}
