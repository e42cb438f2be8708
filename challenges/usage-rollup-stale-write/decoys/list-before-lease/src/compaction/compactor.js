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
 * The fence of a write made by a writer that has none; see
 * src/rollups/rollup-store.js.
 */
const UNFENCED = 0;

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
  return {
    /**
     * Compacts `tenant`'s usage for `period`, unless another compactor holds
     * the period's lease.
     * @param {string} tenant e.g. "tnt_4417"
     * @param {string} period e.g. "2026-10"
     * @returns {Promise<'compacted' | 'busy'>}
     * @throws when a call fails; the rollup store's refusals included (see isStaleWrite)
     */
    async compact(tenant, period) {
      const lease = leaseKey(tenant, period);
      // Listing a whole month can take a while on a slow index; do it before
      // taking the lease, so the lease only covers merge and write and cannot
      // run out under a slow listing (INC: the 24.6 s pause).
      const listed = await segments.list(tenant, period);
      const token = await leases.acquire(lease, owner, config.leaseMs);
      if (token === null) {
        logger.info({ worker: owner, tenant, period, lease: 'busy' });
        return 'busy';
      }
      const started = clock.now();
      logger.info({ worker: owner, tenant, period, lease: 'granted', token });
      try {
        const rollup = mergeSegments({ tenant, period, segments: listed, compactedBy: owner, compactedAt: clock.now() });
        // The lease's token fences the write: the store refuses it once a
        // newer lease holder has written the rollup.
        await rollups.write(rollupKey(tenant, period), JSON.stringify(rollup), token);
        logger.info({ worker: owner, tenant, period, result: 'compacted', segments: rollup.segments, ms: clock.now() - started });
        return 'compacted';
      } finally {
        await leases.release(lease, owner);
      }
    },
  };
}
