/**
 * Per-job claims in the shared store: while one worker handles a job, the
 * other workers that receive the same job leave it alone.
 *
 * A claim is the key `claim:<jobId>`. Its value is a token unique to one
 * acquisition, and it is written with a lease (ttlMs) so that a worker that
 * dies while holding it cannot block the job forever.
 */

/** Acquisitions made in this process; keeps every token unique. */
let acquisitions = 0;

/**
 * The store key of a job's claim.
 * @param {string} jobId
 * @returns {string}
 */
export function claimKey(jobId) {
  return `claim:${jobId}`;
}

/**
 * Creates the claim helper of one worker.
 *
 * @param {object} options
 * @param {import('./memory-store.js').KeyValueStore} options.store the shared store
 * @param {string} options.owner the worker taking claims, e.g. "blue"
 * @param {number} options.ttlMs lease: how long a claim lives if it is never released
 * @param {{ now(): number }} options.clock
 */
export function createClaims({ store, owner, ttlMs, clock }) {
  return {
    /**
     * Claims the job for this worker.
     * @param {string} jobId
     * @returns {Promise<string | null>} a token for release(), or null when another worker holds the job
     */
    async acquire(jobId) {
      const key = claimKey(jobId);
      if ((await store.get(key)) !== null) return null;
      acquisitions += 1;
      const token = `${owner}:${jobId}:${clock.now()}:${acquisitions}`;
      await store.set(key, token, { ttlMs });
      return token;
    },

    /**
     * Gives the claim back, if it is still ours.
     * @param {string} jobId
     * @param {string} token what acquire() returned
     */
    async release(jobId, token) {
      await store.compareAndDelete(claimKey(jobId), token);
    },
  };
}
