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
 * One lock for the whole worker fleet. Per-job locks raced in the incident;
 * with a single key there is only ever one notification in progress, so two
 * workers can never be inside the same job at once.
 */
const FLEET_LOCK_KEY = 'lock:shipment-notify';

/** How often, and how long, to wait for the fleet lock before giving up. */
const WAIT_ATTEMPTS = 5;
const WAIT_MS = 100;

let acquisitions = 0;

/**
 * The store key of a job's lock. All jobs share one lock now.
 * @param {string} _jobId
 * @returns {string}
 */
export function lockKeyFor(_jobId) {
  return FLEET_LOCK_KEY;
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
      acquisitions += 1;
      const token = `${owner}:${jobId}:${acquisitions}`;
      for (let attempt = 1; attempt <= WAIT_ATTEMPTS; attempt += 1) {
        if (await store.setIfAbsent(key, token, { ttlMs })) {
          logger.debug({ job: jobId, key, msg: 'fleet lock claimed', token, attempt });
          return token;
        }
        await clock.sleep(WAIT_MS);
      }
      return null;
    },

    async release(jobId, token) {
      await store.compareAndDelete(lockKeyFor(jobId), token);
    },
  };
}
