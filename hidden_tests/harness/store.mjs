// The fake remote key-value store the workers share: the real semantics of Redis
// GET / SET PX / SET NX PX / compare-and-delete, with expiry on the virtual clock.
// It also remembers who wrote each value, so lock ownership can be judged.

/** Store operations that change nothing. */
export const READ_OPERATIONS = new Set(['get']);

/** A key-value store with leases on virtual time. */
export class FakeStore {
  #entries = new Map();
  #claimKeys;

  /** @param {RegExp} claimKeys keys holding locks or leases, e.g. /^lock:/ */
  constructor(claimKeys) {
    this.#claimKeys = claimKeys;
  }

  /**
   * Returns the live entry for a key at time `now`, dropping it if expired.
   * A claim is a value under a lock key (the suite's claimKeys): a lock or lease.
   * @returns {{ value: string, expiresAt: number|null, writer: string, claim: boolean } | undefined}
   */
  entry(key, now) {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Every live entry at `now`, as [key, entry] pairs. */
  live(now) {
    return [...this.#entries.keys()].map((key) => [key, this.entry(key, now)]).filter(([, entry]) => entry);
  }

  /**
   * Applies one operation and returns its result.
   * @param {string} name operation name
   * @param {unknown[]} args the call's arguments
   * @param {string} writer worker performing it
   * @param {number} now virtual time in ms
   * @returns {unknown}
   */
  apply(name, args, writer, now) {
    const [key, value, options] = args;
    if (typeof key !== 'string') throw new TypeError(`${name}(): key must be a string`);
    const write = (text, opts) => {
      if (typeof text !== 'string') throw new TypeError(`${name}(): value must be a string`);
      const ttl = opts?.ttlMs;
      if (ttl !== undefined && ttl !== null && !(Number.isFinite(ttl) && ttl > 0)) {
        throw new TypeError(`${name}(): ttlMs must be a positive number`);
      }
      this.#entries.set(key, { value: text, expiresAt: ttl ? now + ttl : null, writer, claim: this.#claimKeys.test(key) });
    };
    switch (name) {
      case 'get':
        return this.entry(key, now)?.value ?? null;
      case 'set':
        write(value, options);
        return null;
      case 'setIfAbsent':
        if (this.entry(key, now)) return false;
        write(value, options);
        return true;
      case 'compareAndDelete':
        if (this.entry(key, now)?.value !== value) return false;
        this.#entries.delete(key);
        return true;
      case 'delete':
        this.entry(key, now);
        this.#entries.delete(key);
        return null;
      default:
        throw new TypeError(`the store has no operation ${name}()`);
    }
  }
}
