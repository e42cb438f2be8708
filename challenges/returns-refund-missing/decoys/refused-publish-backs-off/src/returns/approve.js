/**
 * Approves a return request: a warehouse agent has inspected the parcel and
 * pressed "Approve" in the returns console, which sends a return.approve
 * command. The return's status goes from requested to approved, and the
 * refunds service is told (a return.approved event) so that it pays the
 * customer back.
 *
 * Answers:
 *   approved         the return is approved (also when it already was: the
 *                    command queue may deliver a command again)
 *   not-approvable   the return was cancelled (or is in no state to approve)
 *   unknown-return   there is no such return
 * Anything thrown leaves the command unacknowledged: the queue delivers it
 * again.
 */

import { isConditionFailed } from '../db/returns-db.js';
import { RETURNS_TOPIC, returnApproved } from './events.js';

/**
 * @param {{ db: import('../db/returns-db.js').ReturnsDb, bus: import('../bus/event-bus.js').EventBus,
 *   clock: import('../clock.js').Clock, log: import('../logger.js').Logger, metrics: import('../metrics.js').Metrics }} deps
 * @param {{ returnId: string, agent: string }} command
 * @returns {Promise<'approved' | 'not-approvable' | 'unknown-return'>}
 */
export async function approveReturn({ db, bus, clock, log, metrics }, { returnId, agent }) {
  const ret = await db.get('returns', returnId);
  if (!ret) return 'unknown-return';
  if (ret.status === 'approved') {
    log.info({ msg: 'return already approved', status: ret.status });
    return 'approved';
  }
  if (ret.status !== 'requested') return 'not-approvable';

  const approval = { approvedBy: agent, approvedAt: new Date(clock.now()).toISOString() };
  try {
    // The approval and "its event is still due" are one write.
    await db.update('returns', returnId, { status: 'approved', ...approval, refundEvent: 'due' }, { expect: { status: 'requested' } });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const now = await db.get('returns', returnId);
    log.info({ msg: 'return changed while approving', status: now?.status });
    return now?.status === 'approved' ? 'approved' : 'not-approvable';
  }
  metrics.increment('returns_approved_total');
  log.info({ msg: 'return approved', amount_cents: ret.amountCents });

  const event = returnApproved(ret, approval);
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    try {
      await bus.publish(RETURNS_TOPIC, event);
      metrics.increment('returns_events_published_total');
      log.info({ msg: 'event published', event: event.id, attempt });
      await markSent(db, returnId).catch((error) => log.warn({ msg: 'event sent but not recorded', error: error.message }));
      break;
    } catch (error) {
      log.warn({ msg: 'publish failed', attempt, error: error.message });
      // Give the bus a breather: housekeeping picks it up once it is due again.
      await db.update('returns', returnId, { eventNotBefore: clock.now() + 10_000 + Math.floor(Math.random() * 5_000) }, { expect: { refundEvent: 'due' } }).catch(() => {});
      break;
    }
  }
  return 'approved';
}

/** Records that the return's event reached the bus (once: only while it is due). */
export async function markSent(db, returnId) {
  try {
    await db.update('returns', returnId, { refundEvent: 'sent' }, { expect: { refundEvent: 'due' } });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}
