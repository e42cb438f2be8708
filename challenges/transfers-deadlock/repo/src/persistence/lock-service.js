/**
 * The lock service (ledger-locks), as one request sees it.
 *
 * ledger-locks hands out named locks, like row locks in a database. A lock
 * belongs to the session that took it, and every request a pod handles opens
 * its own session, `<pod>/<request id>`, much like a database transaction.
 * When a pod dies or restarts, the service releases the locks of all its
 * sessions.
 *
 *   acquire(key)     waits until nobody else holds `key`, then holds it.
 *                    There is no time limit: if the key is never released,
 *                    the call never returns (production runs with
 *                    acquireTimeoutMs: 0, and ledger-locks has no deadlock
 *                    detection).
 *   tryAcquire(key)  takes `key` if it is free right now; true if it did,
 *                    false at once if someone else holds it.
 *   release(key)     gives back a key this session holds.
 *
 * Locks are not re-entrant; waiters are served in arrival order.
 *
 * @typedef {object} LockService
 * @property {(key: string) => Promise<void>} acquire
 * @property {(key: string) => Promise<boolean>} tryAcquire
 * @property {(key: string) => Promise<void>} release
 */

/**
 * Carries one command to ledger-locks and resolves with its reply. An ACQUIRE
 * command is answered only once the lock is granted.
 * @typedef {(command: { op: 'ACQUIRE' | 'TRY' | 'RELEASE', key: string, session: string }) => Promise<unknown>} LockTransport
 */

/**
 * A pod's client for ledger-locks, with a fixed pool of connections
 * (lockPoolSize) shared by all of the pod's sessions. Every command borrows a
 * connection for as long as it is in flight; an ACQUIRE that waits for a lock
 * keeps its connection the whole time. When all connections are busy,
 * further commands queue in the pod until one frees up.
 */
export class LockServiceClient {
  #send;
  #free;
  /** @type {Array<() => void>} */
  #queued = [];

  /**
   * @param {object} options
   * @param {LockTransport} options.transport
   * @param {number} options.poolSize connections to ledger-locks (config.lockPoolSize)
   */
  constructor({ transport, poolSize }) {
    if (typeof transport !== 'function') throw new TypeError('LockServiceClient: transport must be a function');
    if (!(Number.isInteger(poolSize) && poolSize > 0)) throw new RangeError('LockServiceClient: poolSize must be a positive integer');
    this.#send = transport;
    this.#free = poolSize;
  }

  /**
   * The lock service as one session sees it.
   * @param {string} session e.g. "ledger-5d8f7-kx2lq/req_9f3c2a"
   * @returns {LockService}
   */
  session(session) {
    if (!session) throw new TypeError('LockServiceClient: a session id is required');
    return Object.freeze({
      acquire: async (key) => {
        await this.#command('ACQUIRE', key, session);
      },
      tryAcquire: async (key) => (await this.#command('TRY', key, session)) === true,
      release: async (key) => {
        await this.#command('RELEASE', key, session);
      },
    });
  }

  /** Free connections and commands waiting for one, for the pool gauges. */
  poolStats() {
    return { free: this.#free, queued: this.#queued.length };
  }

  async #command(op, key, session) {
    if (typeof key !== 'string' || key === '') throw new TypeError(`${op}: key must be a non-empty string`);
    await this.#borrow();
    try {
      return await this.#send({ op, key, session });
    } finally {
      this.#giveBack();
    }
  }

  #borrow() {
    if (this.#free > 0) {
      this.#free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queued.push(resolve));
  }

  #giveBack() {
    const next = this.#queued.shift();
    if (next) next();
    else this.#free += 1;
  }
}
