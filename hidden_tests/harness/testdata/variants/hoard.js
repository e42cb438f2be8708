// Keeps everything it ever allocates: the worker must die of memory, and the
// verdict must say so from the process's fate, not from anything printed.
const kept = [];
export function createLock() {
  return {
    async acquire() {
      for (;;) kept.push(new Array(1 << 16).fill(kept.length));
    },
    async release() {},
  };
}
