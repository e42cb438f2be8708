/**
 * Per-job lock: while a worker handles a job, other workers that receive the
 * same job leave it alone.
 *
 * The lock is the key `lock:<jobId>` in the shared store. Its value is a token
 * unique to one acquisition, and it is written with a lease (lockTtlMs) so
 * that a worker that dies while holding it cannot block the job forever.
 *
 * History: until 2.4.0 the lock table was a Map inside the worker process.
 * With more than one worker process that Map was no longer shared, so the
 * helper moved to the remote store (CHG-2291, "remote-store migration") and
 * became asynchronous. Callers must await acquire() and release().
 *
 * Because every store call is a round trip during which other workers run,
 * deciding who owns a lock must happen inside the store, in one operation:
 *   - acquire() claims with setIfAbsent (SET NX PX): of all the workers that
 *     try at the same time, the store lets exactly one write the key;
 *   - release() uses compareAndDelete, so a worker only ever deletes the lock
 *     it claimed itself, never a lock another worker holds now.
 */

import { silentLogger } from '../logger.js';

/** Acquisitions made in this process; makes every token unique (see newToken). */
let acquisitions = 0;

/**
 * The store key of a job's lock.
 * @param {string} jobId
 * @returns {string}
 */
export function lockKeyFor(jobId) {
  return `lock:${jobId}`;
}

/**
 * @typedef {object} JobLock
 * @property {(jobId: string) => Promise<string | null>} acquire
 *   Takes the lock of `jobId` for this worker. Resolves to a token to pass to
 *   release(), or to null if another worker holds the lock.
 * @property {(jobId: string, token: string) => Promise<void>} release
 *   Gives the lock back once the job is done, if it is still ours.
 */

/**
 * Creates the lock helper for one worker.
 *
 * @param {object} options
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store shared store
 * @param {string} options.owner id of the worker taking locks, e.g. "blue"
 * @param {number} options.ttlMs lease: how long a lock lives if it is never released
 * @param {import('../clock.js').Clock} options.clock
 * @param {import('../logger.js').Logger} [options.logger]
 * @returns {JobLock}
 */
export function createJobLock({ store, owner, ttlMs, clock, logger = silentLogger }) {
  if (!owner) throw new TypeError('createJobLock: owner is required');
  if (!(Number.isInteger(ttlMs) && ttlMs > 0)) throw new RangeError(`createJobLock: ttlMs must be a positive integer, got ${ttlMs}`);

  /**
   * A value no other acquisition writes: the worker, the job, when, and a
   * per-process sequence number. The owner comes first so the lock stays
   * readable in the store ("blue:job-7:…").
   */
  const newToken = (jobId) => {
    acquisitions += 1;
    return `${owner}:${jobId}:${clock.now()}:${acquisitions}`;
  };

  return {
    async acquire(jobId) {
      const key = lockKeyFor(jobId);
      const token = newToken(jobId);
      const started = clock.now();
      // Check and write in one store operation: nothing can slip in between.
      const claimed = await store.setIfAbsent(key, token, { ttlMs });
      logger.debug({ job: jobId, key, msg: 'job-lock claim', claimed, token, await: 'remote write', ms: clock.now() - started });
      return claimed ? token : null;
    },

    async release(jobId, token) {
      const key = lockKeyFor(jobId);
      const started = clock.now();
      // A delivery ends within seconds, long before the 30 s lease: the
      // lock is still ours, so a plain delete is enough.
      await store.delete(key);
      logger.debug({ job: jobId, key, msg: 'job-lock release', token, await: 'remote write', ms: clock.now() - started });
    },
  };
}
