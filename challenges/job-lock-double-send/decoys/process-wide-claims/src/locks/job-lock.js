/**
 * Per-job lock: while a worker handles a job, other workers that receive the
 * same job leave it alone.
 *
 * The lock is the key `lock:<jobId>` in the shared store. Its value names the
 * worker that holds it, and it is written with a lease (lockTtlMs) so that a
 * worker that dies while holding it cannot block the job forever.
 *
 * History: until 2.4.0 the lock table was a Map inside the worker process.
 * With more than one worker process that Map was no longer shared, so the
 * helper moved to the remote store (CHG-2291, "remote-store migration") and
 * became asynchronous. Callers must await acquire() and release().
 */

import { silentLogger } from '../logger.js';

/**
 * Per-key queue of pending claims, shared by every consumer in the process. A
 * claim only starts once the previous claim on the same key has finished, so
 * the read and the write of one claim can no longer be split by another
 * claim's read. It lives on the global object under a registered symbol, not
 * in this module: a worker that loads this module twice (tests, hot reload,
 * two copies in node_modules) must still see one queue.
 * @type {Map<string, Promise<void>>}
 */
const claimQueues = (globalThis[Symbol.for('orders-notifier.jobClaimQueues')] ??= new Map());

/**
 * Runs `fn` once every earlier call for `key` has finished.
 * @template T
 * @param {string} key
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function serialised(key, fn) {
  const previous = claimQueues.get(key) ?? Promise.resolve();
  let done;
  const current = new Promise((resolve) => { done = resolve; });
  const tail = previous.then(() => current);
  claimQueues.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    done();
    if (claimQueues.get(key) === tail) claimQueues.delete(key);
  }
}

/**
 * The store key of a job's lock.
 * @param {string} jobId
 * @returns {string}
 */
export function lockKeyFor(jobId) {
  return `lock:${jobId}`;
}

/**
 * Creates the lock helper for one worker.
 *
 * @param {object} options
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store shared store
 * @param {string} options.owner id of the worker taking locks, e.g. "blue"
 * @param {number} options.ttlMs lease: how long a lock lives if it is never released
 * @param {import('../clock.js').Clock} options.clock
 * @param {import('../logger.js').Logger} [options.logger]
 */
export function createJobLock({ store, owner, ttlMs, clock, logger = silentLogger }) {
  if (!owner) throw new TypeError('createJobLock: owner is required');
  if (!(Number.isInteger(ttlMs) && ttlMs > 0)) throw new RangeError(`createJobLock: ttlMs must be a positive integer, got ${ttlMs}`);

  return {
    async acquire(jobId) {
      const key = lockKeyFor(jobId);
      return serialised(key, async () => {
        const current = await store.get(key);
        logger.debug({ job: jobId, key, msg: 'job-lock check', owner: current ?? 'none' });
        if (current !== null) return null;
        await store.set(key, owner, { ttlMs });
        logger.debug({ job: jobId, key, msg: 'job-lock set', owner });
        return owner;
      });
    },

    async release(jobId) {
      await store.delete(lockKeyFor(jobId));
    },
  };
}
