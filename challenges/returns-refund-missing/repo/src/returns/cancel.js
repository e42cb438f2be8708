/**
 * Cancels a return request: the customer pressed "Cancel my return" on the
 * website before the parcel was inspected. Only a requested return can be
 * cancelled; once approved, the refund is on its way.
 *
 * Answers: cancelled, too-late (already approved), unknown-return.
 */

import { isConditionFailed } from '../db/returns-db.js';

/**
 * @param {{ db: import('../db/returns-db.js').ReturnsDb, log: import('../logger.js').Logger,
 *   metrics: import('../metrics.js').Metrics }} deps
 * @param {{ returnId: string }} command
 * @returns {Promise<'cancelled' | 'too-late' | 'unknown-return'>}
 */
export async function cancelReturn({ db, log, metrics }, { returnId }) {
  const ret = await db.get('returns', returnId);
  if (!ret) return 'unknown-return';
  if (ret.status === 'cancelled') return 'cancelled';
  if (ret.status !== 'requested') return 'too-late';
  try {
    await db.update('returns', returnId, { status: 'cancelled' }, { expect: { status: 'requested' } });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const now = await db.get('returns', returnId);
    return now?.status === 'cancelled' ? 'cancelled' : 'too-late';
  }
  metrics.increment('returns_cancelled_total');
  log.info({ msg: 'return cancelled' });
  return 'cancelled';
}
