/**
 * An in-memory store with the interface of the production store, for tests
 * and local runs.
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 * @property {(key: string, value: string, options?: { ttlMs?: number }) => Promise<void>} set
 * @property {(key: string, value: string, options?: { ttlMs?: number }) => Promise<boolean>} setIfAbsent
 *   writes only if the key is absent, in one step; true if it wrote
 * @property {(key: string, expected: string) => Promise<boolean>} compareAndDelete
 *   deletes only if the value is `expected`, in one step; true if it deleted
 * @property {(key: string) => Promise<void>} delete
 */

/**
 * Creates an empty store. Keys written with `ttlMs` expire on `clock`.
 * `roundTrip`, when given, is awaited before each call reaches the data, as a
 * network round trip would be: other callers run in between.
 *
 * @param {{ clock: { now(): number }, roundTrip?: () => Promise<void> }} options
 * @returns {KeyValueStore}
 */
export function createMemoryStore({ clock, roundTrip = async () => {} }) {
  /** @type {Map<string, { value: string, expiresAt: number }>} */
  const entries = new Map();

  const live = (key) => {
    const entry = entries.get(key);
    if (entry && clock.now() >= entry.expiresAt) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const write = (key, value, { ttlMs } = {}) => {
    entries.set(key, { value, expiresAt: ttlMs === undefined ? Infinity : clock.now() + ttlMs });
  };

  return {
    async get(key) {
      await roundTrip();
      return live(key)?.value ?? null;
    },
    async set(key, value, options) {
      await roundTrip();
      write(key, value, options);
    },
    async setIfAbsent(key, value, options) {
      await roundTrip();
      if (live(key)) return false;
      write(key, value, options);
      return true;
    },
    async compareAndDelete(key, expected) {
      await roundTrip();
      if (live(key)?.value !== expected) return false;
      entries.delete(key);
      return true;
    },
    async delete(key) {
      await roundTrip();
      entries.delete(key);
    },
  };
}
