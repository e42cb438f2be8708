/**
 * Handles one delivery of the compactions queue: a request to compact one
 * tenant's usage for one billing period. The outcome tells the queue what to
 * do with the delivery:
 *
 *   'compacted'   this worker wrote the rollup                         → ack
 *   'superseded'  the rollup store refused the write: a newer
 *                 compaction of the period had written it              → ack
 *   'busy'        another worker holds the period's lease              → no ack:
 *                 the queue delivers the request again after its visibility timeout
 *
 * Any other error is thrown, and the queue delivers the request again too.
 */

import { createCompactor } from './compaction/compactor.js';
import { defaultConfig } from './config.js';
import { createLogger } from './logger.js';
import { isStaleWrite } from './rollups/rollup-store.js';

/**
 * Creates one worker process's handler.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "compactor-a"
 * @param {import('./leases/memory-leases.js').LeaseService} deps.leases the lease service
 * @param {import('./segments/memory-segment-index.js').SegmentIndex} deps.segments the segment index
 * @param {import('./rollups/rollup-store.js').RollupStore} deps.rollups the rollup store
 * @param {{ now(): number }} deps.clock
 * @param {import('./logger.js').Logger} [deps.logger]
 * @param {import('./config.js').CompactorConfig} [deps.config]
 * @returns {{ workerId: string, handle(message: { messageId: string, attempt: number, tenant: string, period: string }): Promise<string> }}
 */
export function createWorker({ workerId, leases, segments, rollups, clock, logger = createLogger({ clock }), config = defaultConfig }) {
  const compactor = createCompactor({ owner: workerId, leases, segments, rollups, clock, logger, config });
  return {
    workerId,
    async handle({ tenant, period }) {
      try {
        return await compactor.compact(tenant, period);
      } catch (error) {
        if (!isStaleWrite(error)) throw error;
        logger.warn({ worker: workerId, tenant, period, result: 'superseded', reason: error.message });
        return 'superseded';
      }
    },
  };
}
