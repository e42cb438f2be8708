/**
 * An in-memory store with the interface of the production store, for tests
 * and local runs. Values are strings.
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 * @property {(key: string, value: string) => Promise<void>} set
 * @property {(key: string, value: string) => Promise<boolean>} setIfAbsent
 *   writes only if the key is absent, in one step; true if it wrote
 */

/**
 * Creates an empty store. `roundTrip`, when given, is awaited before each
 * call reaches the data, as a network round trip would be.
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
    async setIfAbsent(key, value) {
      await roundTrip();
      if (values.has(key)) return false;
      values.set(key, value);
      return true;
    },
  };
}
