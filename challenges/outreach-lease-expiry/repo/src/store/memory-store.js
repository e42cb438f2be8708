/**
 * The store interface in memory, for local runs (`npm start` without KV_URL)
 * and the tests. Same semantics as the remote store (see KeyValueStore in
 * remote-store.js): asynchronous, string values, leases on the injected clock,
 * and the conditional operations are single steps.
 */

/**
 * @implements {import('./remote-store.js').KeyValueStore}
 */
export class MemoryStore {
  /** @type {Map<string, { value: string, expiresAt: number | null }>} */
  #entries = new Map();
  #clock;
  #latencyMs;

  /**
   * @param {object} options
   * @param {import('../clock.js').Clock} options.clock decides when leases end
   * @param {number} [options.latencyMs] slept on the clock before each call reaches the data
   */
  constructor({ clock, latencyMs = 0 }) {
    if (!clock) throw new TypeError('MemoryStore: a clock is required');
    this.#clock = clock;
    this.#latencyMs = latencyMs;
  }

  async get(key) {
    await this.#arrive(key);
    return this.#live(key)?.value ?? null;
  }

  async set(key, value, options = {}) {
    await this.#arrive(key);
    this.#write(key, value, options.ttlMs);
  }

  async setIfAbsent(key, value, options = {}) {
    await this.#arrive(key);
    if (this.#live(key)) return false;
    this.#write(key, value, options.ttlMs);
    return true;
  }

  async compareAndDelete(key, expected) {
    await this.#arrive(key);
    if (this.#live(key)?.value !== expected) return false;
    this.#entries.delete(key);
    return true;
  }

  async compareAndExpire(key, expected, ttlMs) {
    await this.#arrive(key);
    const entry = this.#live(key);
    if (entry?.value !== expected) return false;
    entry.expiresAt = this.#clock.now() + checkTtl(ttlMs);
    return true;
  }

  async expire(key, ttlMs) {
    await this.#arrive(key);
    const entry = this.#live(key);
    if (!entry) return false;
    entry.expiresAt = this.#clock.now() + checkTtl(ttlMs);
    return true;
  }

  async delete(key) {
    await this.#arrive(key);
    this.#entries.delete(key);
  }

  /**
   * Live keys and values right now, without latency. Tests and debugging only.
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

  async #arrive(key) {
    if (typeof key !== 'string' || key === '') throw new TypeError('key must be a non-empty string');
    if (this.#latencyMs > 0) await this.#clock.sleep(this.#latencyMs);
  }

  #live(key) {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt !== null && this.#clock.now() >= entry.expiresAt) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  #write(key, value, ttlMs) {
    if (typeof value !== 'string') throw new TypeError(`value for ${key} must be a string`);
    this.#entries.set(key, { value, expiresAt: ttlMs === undefined ? null : this.#clock.now() + checkTtl(ttlMs) });
  }
}

/**
 * Creates an empty {@link MemoryStore}.
 * @param {ConstructorParameters<typeof MemoryStore>[0]} options
 */
export function createMemoryStore(options) {
  return new MemoryStore(options);
}

function checkTtl(ttlMs) {
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new RangeError(`ttlMs must be a positive number, got ${ttlMs}`);
  return ttlMs;
}
