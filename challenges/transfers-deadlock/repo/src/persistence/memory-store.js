/**
 * In-memory stand-in for ledger-kv, for `npm start` and the tests. Same
 * interface and semantics as the remote store (see remote-store.js): every
 * method is asynchronous, values are strings, setIfAbsent is atomic.
 *
 * `beforeOperation` is awaited before each operation touches the data; tests
 * use it to make calls from several pods take turns, like round trips.
 */

/** @implements {import('./remote-store.js').KeyValueStore} */
export class MemoryStore {
  /** @type {Map<string, { value: string, expiresAt: number | null }>} */
  #data = new Map();
  #clock;
  #beforeOperation;

  /**
   * @param {object} options
   * @param {import('../clock.js').Clock} options.clock for expiry
   * @param {Record<string, string>} [options.initial] keys and values to start with
   * @param {(operation: string, key: string) => (void | Promise<void>)} [options.beforeOperation]
   */
  constructor({ clock, initial = {}, beforeOperation } = {}) {
    if (!clock) throw new TypeError('MemoryStore: a clock is required');
    this.#clock = clock;
    this.#beforeOperation = beforeOperation;
    for (const [key, value] of Object.entries(initial)) this.#data.set(key, { value: String(value), expiresAt: null });
  }

  async get(key) {
    await this.#arrive('get', key);
    return this.#live(key)?.value ?? null;
  }

  async set(key, value, options = {}) {
    await this.#arrive('set', key);
    this.#write(key, value, options);
  }

  async setIfAbsent(key, value, options = {}) {
    await this.#arrive('setIfAbsent', key);
    if (this.#live(key)) return false;
    this.#write(key, value, options);
    return true;
  }

  async delete(key) {
    await this.#arrive('delete', key);
    this.#data.delete(key);
  }

  /** Every live key and value, sorted by key, read at once (tests and the demo only). */
  snapshot() {
    const out = {};
    for (const key of [...this.#data.keys()].sort()) {
      const entry = this.#live(key);
      if (entry) out[key] = entry.value;
    }
    return out;
  }

  async #arrive(operation, key) {
    if (typeof key !== 'string' || key === '') throw new TypeError(`${operation}(): key must be a non-empty string`);
    if (this.#beforeOperation) await this.#beforeOperation(operation, key);
  }

  #live(key) {
    const entry = this.#data.get(key);
    if (entry && entry.expiresAt !== null && this.#clock.now() >= entry.expiresAt) {
      this.#data.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key, value, { ttlMs } = {}) {
    if (typeof value !== 'string') throw new TypeError(`value for ${key} must be a string`);
    this.#data.set(key, { value, expiresAt: ttlMs ? this.#clock.now() + ttlMs : null });
  }
}
