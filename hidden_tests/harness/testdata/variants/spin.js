// Asks for the lock again and again and never gets it: a delivery that keeps
// calling without finishing.
export function createLock({ store }) {
  return {
    async acquire(jobId) {
      for (;;) await store.get(`lock:${jobId}:never`);
    },
    async release() {},
  };
}
