/**
 * An in-memory store with the interface of the production store, for tests
 * and local runs. Values are strings; a write with `{ ttlMs }` makes the key
 * expire `ttlMs` after it, on `clock`.
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 * @property {(key: string, value: string, options?: { ttlMs?: number }) => Promise<void>} set
 * @property {(key: string, value: string, options?: { ttlMs?: number }) => Promise<boolean>} setIfAbsent
 *   writes only if the key is absent, in one step; true if it wrote
 * @property {(key: string, expected: string) => Promise<boolean>} compareAndDelete
 *   deletes only if the value is `expected`, in one step; true if it deleted
 * @property {(key: string, expected: string, ttlMs: number) => Promise<boolean>} compareAndExpire
 *   if the value is `expected`, makes the key expire `ttlMs` from now, in one step; true if it did
 * @property {(key: string, ttlMs: number) => Promise<boolean>} expire
 *   makes the key expire `ttlMs` from now, whoever wrote it; true if the key existed
 */

/**
 * Creates an empty store. `roundTrip`, when given, is awaited before each
 * call reaches the data, as a network round trip would be.
 *
 * @param {{ clock: { now(): number }, roundTrip?: () => Promise<void> }} options
 * @returns {KeyValueStore}
 */
export function createMemoryStore({ clock, roundTrip = async () => {} }) {
  /** @type {Map<string, { value: string, expiresAt: number }>} */
  const entries = new Map();
  const live = (key) => {
    const entry = entries.get(key);
    if (entry && clock.now() >= entry.expiresAt) entries.delete(key);
    return entries.get(key);
  };
  const write = (key, value, ttlMs) => entries.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : clock.now() + ttlMs });

  return {
    async get(key) {
      await roundTrip();
      return live(key)?.value ?? null;
    },
    async set(key, value, { ttlMs } = {}) {
      await roundTrip();
      write(key, value, ttlMs);
    },
    async setIfAbsent(key, value, { ttlMs } = {}) {
      await roundTrip();
      if (live(key)) return false;
      write(key, value, ttlMs);
      return true;
    },
    async compareAndDelete(key, expected) {
      await roundTrip();
      if (live(key)?.value !== expected) return false;
      entries.delete(key);
      return true;
    },
    async compareAndExpire(key, expected, ttlMs) {
      await roundTrip();
      if (live(key)?.value !== expected) return false;
      write(key, expected, ttlMs);
      return true;
    },
    async expire(key, ttlMs) {
      await roundTrip();
      const entry = live(key);
      if (!entry) return false;
      write(key, entry.value, ttlMs);
      return true;
    },
  };
}
