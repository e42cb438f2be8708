/**
 * Housekeeping: flushes the counters, and publishes the return.approved event
 * of every approved return whose event is not recorded as sent.
 */
import { isConditionFailed } from '../db/returns-db.js';
import { publishPending } from './approve.js';

/** How long a run owns a pending return it is publishing (well above the 2 s publish timeout). */
const CLAIM_MS = 30_000;

export async function runHousekeeping(deps) {
  const { db, log, metrics } = deps;
  const counters = metrics.flush();
  log.debug({ msg: 'housekeeping', ...counters });
  const pending = await db.query('returns', { status: 'approved', refundEvent: 'pending' });
  let failed = null;
  const now = deps.clock.now();
  for (const doc of pending) {
    // Claim the return so that two overlapping runs do not publish it twice.
    if (doc.claimUntil && doc.claimUntil > now) continue;
    try {
      await db.update('returns', doc.id, { claimUntil: now + CLAIM_MS }, { expect: { refundEvent: 'pending', claimUntil: doc.claimUntil } });
    } catch (error) {
      if (isConditionFailed(error)) continue;
      throw error;
    }
    try {
      await publishPending(deps, doc);
    } catch (error) {
      // Give the claim back so that the next run can try again at once.
      await db.update('returns', doc.id, { claimUntil: 0 }, { expect: { refundEvent: 'pending' } }).catch(() => {});
      failed = error;
      log.warn({ msg: 'pending event not published', return: doc.id, error: error.message });
    }
  }
  if (failed) throw failed;
  return 'done';
}
