/**
 * An in-memory rollup store with the production store's semantics (see
 * ./rollup-store.js), for tests and local runs.
 */

/** @returns {import('./rollup-store.js').RollupStore & { peek(key: string): string | null }} */
export function createMemoryRollupStore() {
  /** @type {Map<string, string>} */
  const bodies = new Map();
  /** @type {Map<string, number>} */
  const fences = new Map();
  return {
    async read(key) {
      return bodies.get(key) ?? null;
    },
    async write(key, body, fence) {
      if (!Number.isInteger(fence)) throw new TypeError(`write(${key}): the fence must be a whole number, got ${fence}`);
      const highest = fences.get(key);
      if (highest !== undefined && fence < highest) throw new Error(`stale fence ${fence}: ${key} already accepted fence ${highest}`);
      fences.set(key, fence);
      bodies.set(key, body);
      return { ok: true };
    },
    /** What is stored at `key`, for tests. */
    peek(key) {
      return bodies.get(key) ?? null;
    },
  };
}
