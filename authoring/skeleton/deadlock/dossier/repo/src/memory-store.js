/**
 * An in-memory store with the interface of the production store, for tests
 * and local runs: `get(key)` → the value or null, `set(key, value)`. Values
 * are strings. `roundTrip`, when given, is awaited before each call reaches
 * the data, as a network round trip would be: other callers run in between.
 *
 * @param {{ roundTrip?: () => Promise<void> }} [options]
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
  };
}
