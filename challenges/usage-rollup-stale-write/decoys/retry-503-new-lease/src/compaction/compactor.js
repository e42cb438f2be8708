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
import { isStaleWrite } from '../rollups/rollup-store.js';

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
        // A 503 stored nothing: write the same rollup again, under a fresh
        // lease, so that its token is still the newest when it lands.
        let fence = token;
        for (;;) {
          try {
            await rollups.write(rollupKey(tenant, period), JSON.stringify(rollup), fence);
            break;
          } catch (error) {
            if (isStaleWrite(error)) throw error;
            await clock.sleep(1000);
            let fresh;
            while ((fresh = await leases.acquire(lease, owner, config.leaseMs)) === null) await clock.sleep(1000);
            fence = fresh;
          }
        }
        logger.info({ worker: owner, tenant, period, result: 'compacted', segments: rollup.segments, ms: clock.now() - started });
        return 'compacted';
      } finally {
        await leases.release(lease, owner);
      }
    },
  };
}
