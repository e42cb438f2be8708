/**
 * The quota store in memory, for local runs and tests. Same contract as the
 * remote store (KeyValueStore in remote-store.js): asynchronous methods,
 * string values, expiry on the injected clock, one step per call.
 *
 * A real store is a round trip away. Pass `beforeOperation` to make each call
 * wait (for example one turn of the event loop) before it reaches the data, so
 * calls from several pods interleave the way they do over the network.
 */

/** @implements {import('./remote-store.js').KeyValueStore} */
export class MemoryStore {
  /** @type {Map<string, { value: string, expiresAt: number | null }>} */
  #data = new Map();
  #clock;
  #beforeOperation;

  /**
   * @param {object} options
   * @param {import('../clock.js').Clock} options.clock
   * @param {(operation: string, key: string) => (void | Promise<void>)} [options.beforeOperation]
   */
  constructor({ clock, beforeOperation } = {}) {
    if (!clock) throw new TypeError('MemoryStore: a clock is required');
    this.#clock = clock;
    this.#beforeOperation = beforeOperation;
  }

  async get(key) {
    await this.#arrive('get', key);
    return this.#read(key)?.value ?? null;
  }

  async set(key, value, options) {
    await this.#arrive('set', key);
    this.#write(key, value, options);
  }

  async setIfAbsent(key, value, options) {
    await this.#arrive('setIfAbsent', key);
    if (this.#read(key)) return false;
    this.#write(key, value, options);
    return true;
  }

  async compareAndSet(key, expected, value, options) {
    await this.#arrive('compareAndSet', key);
    if ((this.#read(key)?.value ?? null) !== expected) return false;
    this.#write(key, value, options);
    return true;
  }

  async incrBy(key, delta) {
    await this.#arrive('incrBy', key);
    if (!Number.isInteger(delta)) throw new TypeError(`incrBy(): delta must be an integer, got ${delta}`);
    const entry = this.#read(key);
    const current = entry?.value ?? '0';
    if (!/^-?\d+$/.test(current)) throw new TypeError(`incrBy(): ${key} does not hold an integer`);
    const next = Number(current) + delta;
    this.#data.set(key, { value: String(next), expiresAt: entry?.expiresAt ?? null });
    return next;
  }

  async expire(key, ttlMs) {
    await this.#arrive('expire', key);
    const entry = this.#read(key);
    if (!entry) return false;
    entry.expiresAt = this.#clock.now() + checkTtl(ttlMs);
    return true;
  }

  async delete(key) {
    await this.#arrive('delete', key);
    this.#data.delete(key);
  }

  /**
   * Every live key with its value and expiry, read directly (no simulated
   * round trip). Tests and debugging only.
   * @returns {Record<string, { value: string, expiresAt: number | null }>}
   */
  snapshot() {
    const out = {};
    for (const key of [...this.#data.keys()].sort()) {
      const entry = this.#read(key);
      if (entry) out[key] = { ...entry };
    }
    return out;
  }

  async #arrive(operation, key) {
    if (typeof key !== 'string' || key === '') throw new TypeError(`${operation}(): key must be a non-empty string`);
    if (this.#beforeOperation) await this.#beforeOperation(operation, key);
  }

  #read(key) {
    const entry = this.#data.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt !== null && this.#clock.now() >= entry.expiresAt) {
      this.#data.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key, value, { ttlMs } = {}) {
    if (typeof value !== 'string') throw new TypeError(`value of ${key} must be a string`);
    this.#data.set(key, { value, expiresAt: ttlMs === undefined ? null : this.#clock.now() + checkTtl(ttlMs) });
  }
}

function checkTtl(ttlMs) {
  if (!(Number.isFinite(ttlMs) && ttlMs > 0)) throw new RangeError(`ttlMs must be positive, got ${ttlMs}`);
  return ttlMs;
}

/** @param {ConstructorParameters<typeof MemoryStore>[0]} options */
export function createMemoryStore(options) {
  return new MemoryStore(options);
}
