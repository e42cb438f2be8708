/**
 * An in-memory ledger-locks, for `npm start` and the tests.
 *
 * Same semantics as the real service (see lock-service.js): acquire() waits
 * for as long as another session holds the key, tryAcquire() answers at once,
 * waiters are served in arrival order, locks are not re-entrant.
 *
 * Unlike production it can say who waits for whom (waits()) and spot a
 * cycle in that graph (deadlock()), which the tests use to fail with an
 * explanation instead of hanging.
 */

export class MemoryLockServer {
  /** @type {Map<string, string>} key -> session holding it */
  #holders = new Map();
  /** @type {Map<string, Array<{ session: string, grant: () => void }>>} key -> waiters in arrival order */
  #waiters = new Map();
  #beforeOperation;

  /**
   * @param {object} [options]
   * @param {(operation: string, key: string, session: string) => (void | Promise<void>)} [options.beforeOperation]
   *   awaited before each command reaches the lock table, like a round trip
   */
  constructor({ beforeOperation } = {}) {
    this.#beforeOperation = beforeOperation;
  }

  /**
   * The lock service as one session (one request) sees it.
   * @param {string} session
   * @returns {import('./lock-service.js').LockService}
   */
  session(session) {
    return Object.freeze({
      acquire: async (key) => {
        await this.#arrive('acquire', key, session);
        const holder = this.#holders.get(key);
        if (holder === session) throw new Error(`${session} already holds ${key} (locks are not re-entrant)`);
        if (holder === undefined) {
          this.#holders.set(key, session);
          return;
        }
        await new Promise((grant) => {
          const queue = this.#waiters.get(key) ?? [];
          queue.push({ session, grant });
          this.#waiters.set(key, queue);
        });
      },
      tryAcquire: async (key) => {
        await this.#arrive('tryAcquire', key, session);
        if (this.#holders.has(key)) return false;
        this.#holders.set(key, session);
        return true;
      },
      release: async (key) => {
        await this.#arrive('release', key, session);
        if (this.#holders.get(key) !== session) throw new Error(`${session} released ${key}, which it does not hold`);
        const queue = this.#waiters.get(key) ?? [];
        const next = queue.shift();
        if (queue.length === 0) this.#waiters.delete(key);
        if (next) {
          this.#holders.set(key, next.session);
          next.grant();
        } else {
          this.#holders.delete(key);
        }
      },
    });
  }

  /** Who holds which key right now: { key: session }. */
  held() {
    return Object.fromEntries([...this.#holders].sort(([a], [b]) => a.localeCompare(b)));
  }

  /**
   * Every session waiting for a key, with the session holding it.
   * @returns {Array<{ session: string, key: string, holder: string }>}
   */
  waits() {
    const out = [];
    for (const [key, queue] of this.#waiters) {
      for (const { session } of queue) out.push({ session, key, holder: this.#holders.get(key) });
    }
    return out;
  }

  /**
   * A cycle of sessions each waiting for a key the next one holds, or null.
   * @returns {Array<{ session: string, key: string, holder: string }> | null}
   */
  deadlock() {
    const waitsBySession = new Map(this.waits().map((w) => [w.session, w]));
    for (const start of waitsBySession.keys()) {
      const path = [];
      const seen = new Set();
      let session = start;
      while (waitsBySession.has(session) && !seen.has(session)) {
        seen.add(session);
        const wait = waitsBySession.get(session);
        path.push(wait);
        session = wait.holder;
      }
      if (session === start) return path;
    }
    return null;
  }

  async #arrive(operation, key, session) {
    if (typeof key !== 'string' || key === '') throw new TypeError(`${operation}(): key must be a non-empty string`);
    if (this.#beforeOperation) await this.#beforeOperation(operation, key, session);
  }
}
