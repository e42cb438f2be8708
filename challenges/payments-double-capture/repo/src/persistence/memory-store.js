/**
 * The store interface (KeyValueStore in remote-store.js) in memory, for
 * local runs and tests. Same semantics: asynchronous, string values, keys
 * with `ttlMs` expire on the injected clock, setIfAbsent and
 * compareAndDelete decide in one step.
 *
 * `beforeEach` is awaited before every operation touches the data. Tests use
 * it to make each call take a turn of the event loop, as a round trip to
 * Redis would, so that calls from several instances interleave.
 *
 * @implements {import('./remote-store.js').KeyValueStore}
 */
export class MemoryStore {
  /** @type {Map<string, { value: string, expiresAt: number | null }>} */
  #data = new Map();
  #clock;
  #beforeEach;

  /**
   * @param {object} options
   * @param {import('../clock.js').Clock} options.clock decides expiry
   * @param {(operation: string, key: string) => (Promise<void> | void)} [options.beforeEach]
   */
  constructor({ clock, beforeEach }) {
    if (!clock) throw new TypeError('MemoryStore: clock is required');
    this.#clock = clock;
    this.#beforeEach = beforeEach;
  }

  async get(key) {
    await this.#enter('get', key);
    return this.#read(key)?.value ?? null;
  }

  async set(key, value, options = {}) {
    await this.#enter('set', key);
    this.#write(key, value, options);
  }

  async setIfAbsent(key, value, options = {}) {
    await this.#enter('setIfAbsent', key);
    if (this.#read(key)) return false;
    this.#write(key, value, options);
    return true;
  }

  async compareAndDelete(key, expected) {
    await this.#enter('compareAndDelete', key);
    if (this.#read(key)?.value !== expected) return false;
    this.#data.delete(key);
    return true;
  }

  async delete(key) {
    await this.#enter('delete', key);
    this.#data.delete(key);
  }

  /**
   * Live keys and values now, without any simulated round trip. Tests and
   * debugging only: Redis has no such call here.
   * @returns {Record<string, string>}
   */
  dump() {
    const out = {};
    for (const key of [...this.#data.keys()].sort()) {
      const entry = this.#read(key);
      if (entry) out[key] = entry.value;
    }
    return out;
  }

  async #enter(operation, key) {
    if (typeof key !== 'string' || key.length === 0) throw new TypeError(`${operation}(): key must be a non-empty string`);
    if (this.#beforeEach) await this.#beforeEach(operation, key);
  }

  #read(key) {
    const entry = this.#data.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= this.#clock.now()) {
      this.#data.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key, value, { ttlMs } = {}) {
    if (typeof value !== 'string') throw new TypeError(`value of ${key} must be a string`);
    if (ttlMs !== undefined && !(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`ttlMs must be positive, got ${ttlMs}`);
    this.#data.set(key, { value, expiresAt: ttlMs === undefined ? null : this.#clock.now() + ttlMs });
  }
}
