/**
 * An in-memory store with the interface of the production store, for tests
 * and local runs.
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 * @property {(key: string, value: string) => Promise<void>} set
 * @property {(key: string, expected: string | null, value: string) => Promise<boolean>} compareAndSet
 *   writes only if the value is `expected` (null: absent), in one step; true if it wrote
 * @property {(key: string, delta: number) => Promise<number>} incrBy
 *   adds delta to the integer at key (a missing key counts as 0), in one step; the new value
 */

/**
 * Creates an empty store. `roundTrip`, when given, is awaited before each
 * call reaches the data, as a network round trip would be: other callers run
 * in between.
 *
 * @param {{ roundTrip?: () => Promise<void> }} [options]
 * @returns {KeyValueStore}
 */
export function createMemoryStore({ roundTrip = async () => {} } = {}) {
  /** @type {Map<string, string>} */
  const values = new Map();

  return {
    async get(key) {
      await roundTrip();
      return values.get(key) ?? null;
    },
    async set(key, value) {
      await roundTrip();
      values.set(key, value);
    },
    async compareAndSet(key, expected, value) {
      await roundTrip();
      if ((values.get(key) ?? null) !== expected) return false;
      values.set(key, value);
      return true;
    },
    async incrBy(key, delta) {
      await roundTrip();
      const next = Number(values.get(key) ?? '0') + delta;
      values.set(key, String(next));
      return next;
    },
  };
}
