/**
 * The cache interface (see remote-store.js) in memory, for local runs and the
 * tests. Keys written with `ttlMs` expire on the injected clock. Pass
 * `roundTrip` to make every call wait before it reaches the data, as a call
 * over the network does, so that other callers can run in between.
 */

/**
 * @param {{ clock: import('../clock.js').Clock, roundTrip?: () => Promise<void> }} options
 * @returns {import('./remote-store.js').KeyValueStore & { snapshot(): Record<string, string> }}
 */
export function createMemoryStore({ clock, roundTrip = async () => {} }) {
  /** @type {Map<string, { value: string, expiresAt: number | null }>} */
  const entries = new Map();

  const live = (key) => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= clock.now()) entries.delete(key);
    return entries.get(key);
  };
  const write = (key, value, { ttlMs } = {}) => {
    if (typeof value !== 'string') throw new TypeError(`the value of ${key} must be a string`);
    if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`ttlMs must be positive, got ${ttlMs}`);
    entries.set(key, { value, expiresAt: ttlMs === undefined ? null : clock.now() + ttlMs });
  };
  const arrive = async (key) => {
    if (typeof key !== 'string' || key === '') throw new TypeError('a key must be a non-empty string');
    await roundTrip();
  };

  return {
    async get(key) {
      await arrive(key);
      return live(key)?.value ?? null;
    },
    async set(key, value, options) {
      await arrive(key);
      write(key, value, options);
    },
    async setIfAbsent(key, value, options) {
      await arrive(key);
      if (live(key)) return false;
      write(key, value, options);
      return true;
    },
    async compareAndSet(key, expected, value, options) {
      await arrive(key);
      if ((live(key)?.value ?? null) !== expected) return false;
      write(key, value, options);
      return true;
    },
    async compareAndDelete(key, expected) {
      await arrive(key);
      if (live(key)?.value !== expected) return false;
      entries.delete(key);
      return true;
    },
    async delete(key) {
      await arrive(key);
      entries.delete(key);
    },
    async incrBy(key, delta) {
      await arrive(key);
      const current = Number(live(key)?.value ?? 0);
      if (!Number.isInteger(current)) throw new TypeError(`${key} does not hold an integer`);
      const entry = live(key);
      const next = String(current + delta);
      entries.set(key, { value: next, expiresAt: entry?.expiresAt ?? null });
      return Number(next);
    },
    /** The live keys and values now; tests only, the remote cache has nothing like it. */
    snapshot() {
      return Object.fromEntries([...entries.keys()].sort().filter((k) => live(k)).map((k) => [k, entries.get(k).value]));
    },
  };
}
