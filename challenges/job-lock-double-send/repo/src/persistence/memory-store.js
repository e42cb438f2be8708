/**
 * An in-memory implementation of the store interface, for local runs and tests.
 *
 * It behaves like the remote store (see KeyValueStore in remote-store.js):
 * every method is asynchronous, values are strings, keys written with `ttlMs`
 * expire on the injected clock, and setIfAbsent / compareAndDelete are atomic.
 *
 * To make it behave like a store across a network, pass `beforeOperation`:
 * it is awaited before each operation reaches the data, so calls from several
 * workers can be made to arrive in a chosen order. `latencyMs` does the same
 * with a clock.sleep() of fixed length.
 */

/**
 * @implements {import('./remote-store.js').KeyValueStore}
 */
export class MemoryStore {
  /** @type {Map<string, { value: string, expiresAt: number | null }>} */
  #entries = new Map();
  #clock;
  #latencyMs;
  #beforeOperation;

  /**
   * @param {object} options
   * @param {import('../clock.js').Clock} options.clock decides when keys expire
   * @param {number} [options.latencyMs] simulated one-way latency, slept on the clock before each operation
   * @param {(operation: string, key: string) => (Promise<void> | void)} [options.beforeOperation]
   *   awaited before each operation is applied
   */
  constructor({ clock, latencyMs = 0, beforeOperation } = {}) {
    if (!clock) throw new TypeError('MemoryStore: a clock is required');
    this.#clock = clock;
    this.#latencyMs = latencyMs;
    this.#beforeOperation = beforeOperation;
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

  async compareAndDelete(key, expected) {
    await this.#arrive('compareAndDelete', key);
    if (this.#live(key)?.value !== expected) return false;
    this.#entries.delete(key);
    return true;
  }

  async delete(key) {
    await this.#arrive('delete', key);
    this.#entries.delete(key);
  }

  /**
   * The live keys and values right now, without any simulated latency.
   * For tests and debugging only; the remote store has no equivalent.
   * @returns {Record<string, string>}
   */
  snapshot() {
    const out = {};
    for (const key of [...this.#entries.keys()].sort()) {
      const entry = this.#live(key);
      if (entry) out[key] = entry.value;
    }
    return out;
  }

  async #arrive(operation, key) {
    if (typeof key !== 'string' || key === '') throw new TypeError(`${operation}(): key must be a non-empty string`);
    if (this.#beforeOperation) await this.#beforeOperation(operation, key);
    if (this.#latencyMs > 0) await this.#clock.sleep(this.#latencyMs);
  }

  #live(key) {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && this.#clock.now() >= entry.expiresAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key, value, { ttlMs } = {}) {
    if (typeof value !== 'string') throw new TypeError(`value for ${key} must be a string`);
    if (ttlMs !== undefined && (!Number.isFinite(ttlMs) || ttlMs <= 0)) {
      throw new RangeError(`ttlMs must be a positive number, got ${ttlMs}`);
    }
    this.#entries.set(key, { value, expiresAt: ttlMs === undefined ? null : this.#clock.now() + ttlMs });
  }
}

/**
 * Creates an empty {@link MemoryStore}.
 * @param {ConstructorParameters<typeof MemoryStore>[0]} options
 * @returns {MemoryStore}
 */
export function createMemoryStore(options) {
  return new MemoryStore(options);
}
