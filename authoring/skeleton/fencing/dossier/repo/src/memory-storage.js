/**
 * An in-memory report storage with the interface of the production one, for
 * tests and local runs.
 *
 * @typedef {object} ReportStorage
 * @property {(key: string) => Promise<unknown>} read the value at key, or null
 * @property {(key: string, value: unknown, fence: number) => Promise<{ ok: true }>} write
 *   writes the value unless a higher fence already wrote the key: then it
 *   rejects with an error whose message starts with "stale". Writers that
 *   hold no fencing token pass 0, which every write accepts until a fenced
 *   write (fence 1 or more) reaches the key.
 */

/** @returns {ReportStorage & { peek(key: string): unknown }} */
export function createReportStorage() {
  /** @type {Map<string, unknown>} */
  const values = new Map();
  /** @type {Map<string, number>} */
  const fences = new Map();
  return {
    async read(key) {
      return values.get(key) ?? null;
    },
    async write(key, value, fence) {
      if (fence < (fences.get(key) ?? -Infinity)) throw new Error(`stale fence ${fence}: ${key} was written with ${fences.get(key)}`);
      fences.set(key, fence);
      values.set(key, value);
      return { ok: true };
    },
    /** What is stored at key, for tests. */
    peek(key) {
      return values.get(key) ?? null;
    },
  };
}
