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

      const current = await store.get(key);
      if (current !== null && current !== owner) return null;

      await store.set(key, owner, { ttlMs });

      // Two workers can both get past the check above, but only one value can
      // be in the store at the end: the last writer wins. Read it back and
      // only go ahead if the winner is us.
      const winner = await store.get(key);
      logger.debug({ job: jobId, key, msg: 'job-lock read-back', owner: winner ?? 'none', mine: winner === owner });
      return winner === owner ? owner : null;
    },

    async release(jobId, token) {
      const key = lockKeyFor(jobId);
      // Only delete the lock if it is still ours.
      if ((await store.get(key)) === token) {
        await store.delete(key);
      }
    },
  };
}
