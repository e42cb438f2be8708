/**
 * Housekeeping: the scheduler sends every worker a housekeeping.tick command
 * every 10 s (housekeepingEveryMs in src/config.js). A run does the periodic
 * work of the worker that is due when it starts, and answers "done": it
 * publishes every approval whose event is still due, then writes the worker's
 * counters to the metrics pipeline.
 */

import { RETURNS_TOPIC, returnApproved } from './events.js';
import { markSent } from './approve.js';

/**
 * @param {object} deps the worker's database, bus, clock, log and metrics
 * @returns {Promise<'done'>}
 */
export async function runHousekeeping({ db, bus, clock, log, metrics }) {
  // Publish every approval whose event is still due.
  for (const ret of await db.query('returns', { status: 'approved', refundEvent: 'due' })) {
    if ((ret.eventNotBefore ?? 0) > clock.now()) continue;
    const event = returnApproved(ret, { approvedBy: ret.approvedBy, approvedAt: ret.approvedAt });
    try {
      await bus.publish(RETURNS_TOPIC, event);
      await markSent(db, ret.id);
    } catch (error) {
      log.warn({ msg: 'relay: not sent, next run tries again', event: event.id, error: error.message });
    }
  }
  const counters = metrics.flush();
  log.debug({ msg: 'housekeeping', ...counters });
  return 'done';
}
