// Prints what V8 prints when a heap runs out, then loops: the verdict must be a
// time-out (what happened), not memory (what it printed).
export function createLock() {
  return {
    async acquire() {
      console.error('FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory');
      process.stderr.write('<--- Last few GCs --->\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n');
      for (;;) { /* never yields */ }
    },
    async release() {},
  };
}
