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
 * How long to wait between the first check and the confirming check. A claim
 * another worker started at the same moment has landed in the store by then:
 * store round trips take a few milliseconds.
 */
const SETTLE_MS = 50;

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
      logger.debug({ job: jobId, key, msg: 'job-lock check', owner: current ?? 'none' });
      if (current !== null) return null;

      // The incident: two workers both saw the lock free within a few ms.
      // Give a concurrent claim time to land, then look again before writing.
      await clock.sleep(SETTLE_MS);
      const again = await store.get(key);
      logger.debug({ job: jobId, key, msg: 'job-lock re-check', owner: again ?? 'none' });
      if (again !== null) return null;

      await store.set(key, owner, { ttlMs });
      logger.debug({ job: jobId, key, msg: 'job-lock set', owner });
      return owner;
    },

    async release(jobId) {
      await store.delete(lockKeyFor(jobId));
    },
  };
}
