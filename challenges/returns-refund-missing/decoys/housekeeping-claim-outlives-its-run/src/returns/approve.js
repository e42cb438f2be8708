/**
 * Approves a return request (see README). Outbox style: the approval and a
 * `refundEvent: 'pending'` marker are written in one conditional update; the
 * event is then published and the marker set to 'sent'. Whatever is still
 * pending is published by housekeeping.
 */

import { isConditionFailed } from '../db/returns-db.js';
import { RETURNS_TOPIC, returnApproved } from './events.js';

/** Publishes the event of an approved return document and records it as sent. */
export async function publishPending({ db, bus, log, metrics }, doc) {
  const event = returnApproved(doc, { approvedBy: doc.approvedBy, approvedAt: doc.approvedAt });
  await bus.publish(RETURNS_TOPIC, event);
  metrics.increment('returns_events_published_total');
  log.info({ msg: 'event published', event: event.id });
  try {
    await db.update('returns', doc.id, { refundEvent: 'sent' }, { expect: { refundEvent: 'pending' } });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

export async function approveReturn(deps, { returnId, agent }) {
  const { db, clock, log, metrics } = deps;
  const ret = await db.get('returns', returnId);
  if (!ret) return 'unknown-return';
  if (ret.status === 'approved') {
    log.info({ msg: 'return already approved', status: ret.status });
    if (ret.refundEvent === 'pending') await tryPublish(deps, ret);
    return 'approved';
  }
  if (ret.status !== 'requested') return 'not-approvable';

  const approval = { approvedBy: agent, approvedAt: new Date(clock.now()).toISOString() };
  try {
    await db.update('returns', returnId, { status: 'approved', ...approval, refundEvent: 'pending' }, { expect: { status: 'requested' } });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const now = await db.get('returns', returnId);
    log.info({ msg: 'return changed while approving', status: now?.status });
    return now?.status === 'approved' ? 'approved' : 'not-approvable';
  }
  metrics.increment('returns_approved_total');
  log.info({ msg: 'return approved', amount_cents: ret.amountCents });
  await tryPublish(deps, { ...ret, status: 'approved', ...approval, refundEvent: 'pending' });
  return 'approved';
}

async function tryPublish(deps, doc) {
  try {
    await publishPending(deps, doc);
  } catch (error) {
    // The approval is written with its marker: housekeeping publishes it.
    deps.log.warn({ msg: 'event left to housekeeping', error: error.message });
  }
}
