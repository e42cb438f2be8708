/**
 * Approves a return request: a warehouse agent has inspected the parcel and
 * pressed "Approve" in the returns console, which sends a return.approve
 * command. The return's status goes from requested to approved, and the
 * refunds service is told (a return.approved event) so that it pays the
 * customer back.
 *
 * The approval and its event are written together, in one transactWrite: the
 * event goes to the outbox table, and housekeeping publishes what the outbox
 * holds (src/returns/housekeeping.js). So an approval that is in the database
 * always has its event on its way, whatever happens to this worker or to the
 * bus after the write, and no event exists for an approval that was not
 * written.
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
import { OUTBOX_TABLE } from './housekeeping.js';

/** The return being approved and by whom, kept for the log lines of the steps below. */
const approving = { ret: null, agent: null };

/**
 * @param {{ db: import('../db/returns-db.js').ReturnsDb, bus: import('../bus/event-bus.js').EventBus,
 *   clock: import('../clock.js').Clock, log: import('../logger.js').Logger, metrics: import('../metrics.js').Metrics }} deps
 * @param {{ returnId: string, agent: string }} command
 * @returns {Promise<'approved' | 'not-approvable' | 'unknown-return'>}
 */
export async function approveReturn({ db, clock, log, metrics }, { returnId, agent }) {
  approving.ret = await db.get('returns', returnId);
  approving.agent = agent;
  if (!approving.ret) return 'unknown-return';
  if (approving.ret.status === 'approved') {
    log.info({ msg: 'return already approved', status: approving.ret.status });
    return 'approved';
  }
  if (approving.ret.status !== 'requested') return 'not-approvable';
  // A delivery of this command that died after its write left the event in
  // the outbox: then the return is approved already.
  if (await db.get(OUTBOX_TABLE, `return-approved:${returnId}`)) return 'approved';

  const approval = { approvedBy: approving.agent, approvedAt: new Date(clock.now()).toISOString() };
  const event = returnApproved(approving.ret, approval);
  try {
    await db.transactWrite([
      { update: { table: 'returns', id: approving.ret.id, set: { status: 'approved', ...approval }, expect: { status: 'requested' } } },
      { put: { table: OUTBOX_TABLE, doc: { id: event.id, topic: RETURNS_TOPIC, event, state: 'pending' } } },
    ]);
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    // Someone else changed the return since we read it: answer from what it is now.
    const now = await db.get('returns', returnId);
    log.info({ msg: 'return changed while approving', status: now?.status });
    return now?.status === 'approved' ? 'approved' : 'not-approvable';
  }
  metrics.increment('returns_approved_total');
  log.info({ msg: 'return approved', amount_cents: ret.amountCents, event: event.id });
  return 'approved';
}
