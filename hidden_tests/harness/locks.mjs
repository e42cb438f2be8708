// The blocking lock service: row-style locks that make a caller wait until the key
// is free. An acquire is only deliverable while nobody else holds its key, so two
// workers waiting for each other's keys leave the schedule with nothing to do: a
// deadlock the explorer reports with its cycle.

/** Lock-service operations that answer without waiting. */
const NON_BLOCKING = new Set(['tryAcquire', 'release']);

/** Exclusive, non-reentrant locks held by workers. */
export class LockService {
  #holders = new Map();

  /** The worker holding `key`, if any. */
  holder(key) {
    return this.#holders.get(key);
  }

  /** Every [key, worker] pair currently held. */
  held() {
    return [...this.#holders.entries()];
  }

  /** Whether the call can complete now (a blocking acquire waits for a free key). */
  ready(op) {
    return NON_BLOCKING.has(op.name) || op.name !== 'acquire' || !this.#holders.has(op.args?.[0]);
  }

  /** Frees every lock a worker held: its session ended (it crashed). */
  releaseAll(worker) {
    for (const [key, holder] of this.#holders) if (holder === worker) this.#holders.delete(key);
  }

  /**
   * Applies one call and returns its result.
   * @returns {boolean} whether the lock was taken or released
   */
  apply(name, args, worker) {
    const [key] = args;
    if (typeof key !== 'string') throw new TypeError(`${name}(): key must be a string`);
    switch (name) {
      case 'acquire':
      case 'tryAcquire':
        if (this.#holders.has(key)) return false;
        this.#holders.set(key, worker);
        return true;
      case 'release':
        if (this.#holders.get(key) !== worker) return false;
        this.#holders.delete(key);
        return true;
      default:
        throw new TypeError(`the lock service has no operation ${name}()`);
    }
  }
}
