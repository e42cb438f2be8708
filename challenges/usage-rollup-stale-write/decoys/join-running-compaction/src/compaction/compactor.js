/**
 * Compacts one tenant's usage for one billing period: lists the hourly
 * segments that have landed, merges them, and writes the rollup invoicing
 * reads (rollups/<period>/<tenant>.json).
 *
 * A compaction is requested whenever a segment of the period lands, and the
 * queue delivers a request again when it is not acknowledged in time, so two
 * compactors can be handed the same tenant and period at once. Each takes the
 * period's lease from the lease service first (rollup:<period>:<tenant>), and
 * only the holder compacts; the other answers 'busy' and gets the request
 * again later.
 */

import { leaseKey, rollupKey } from './keys.js';
import { mergeSegments } from './merge.js';

/**
 * Creates the compactor of one worker process.
 *
 * @param {object} deps
 * @param {string} deps.owner this worker's name ("compactor-a"), which owns its leases
 * @param {import('../leases/memory-leases.js').LeaseService} deps.leases
 * @param {import('../segments/memory-segment-index.js').SegmentIndex} deps.segments
 * @param {import('../rollups/rollup-store.js').RollupStore} deps.rollups
 * @param {{ now(): number }} deps.clock
 * @param {import('../logger.js').Logger} deps.logger
 * @param {import('../config.js').CompactorConfig} deps.config
 */
export function createCompactor({ owner, leases, segments, rollups, clock, logger, config }) {
  /** Compactions running in this process, by lease key: a repeat joins the one running. */
  const running = new Map();

  /**
   * One compaction under the period's lease.
   * @param {string} tenant
   * @param {string} period
   * @returns {Promise<'compacted' | 'busy'>}
   */
  async function compactUnderLease(tenant, period) {
    const lease = leaseKey(tenant, period);
    const token = await leases.acquire(lease, owner, config.leaseMs);
    if (token === null) {
      logger.info({ worker: owner, tenant, period, lease: 'busy' });
      return 'busy';
    }
    const started = clock.now();
    logger.info({ worker: owner, tenant, period, lease: 'granted', token });
    try {
      const listed = await segments.list(tenant, period);
      const rollup = mergeSegments({ tenant, period, segments: listed, compactedBy: owner, compactedAt: clock.now() });
      // The lease alone cannot keep this write out once the lease has passed
      // to another compactor: this process may have frozen since it was
      // granted. Its token goes with the write, and the store refuses it when
      // a newer holder's higher token has written the rollup already.
      await rollups.write(rollupKey(tenant, period), JSON.stringify(rollup), token);
      logger.info({ worker: owner, tenant, period, result: 'compacted', segments: rollup.segments, ms: clock.now() - started });
      return 'compacted';
    } finally {
      await leases.release(lease, owner);
    }
  }

  return {
    /**
     * Compacts `tenant`'s usage for `period`, unless another compactor holds
     * the period's lease. A request for a compaction this process is running
     * already waits for that one and answers with its outcome: the queue
     * delivers requests again, and two compactions of one period in one
     * process would only race each other.
     * @param {string} tenant e.g. "tnt_4417"
     * @param {string} period e.g. "2026-10"
     * @returns {Promise<'compacted' | 'busy'>}
     * @throws when a call fails; the rollup store's refusals included (see isStaleWrite)
     */
    async compact(tenant, period) {
      const key = leaseKey(tenant, period);
      const current = running.get(key);
      if (current) return current;
      const compaction = compactUnderLease(tenant, period);
      running.set(key, compaction);
      try {
        return await compaction;
      } finally {
        running.delete(key);
      }
    },
  };
}
