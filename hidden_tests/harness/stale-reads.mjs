// Reads that took effect before their answer arrived.
//
// A read's latency is its whole round trip: it may have read the key as soon
// as its latency allows and spent the rest on the way back. The world answers
// a read when it arrives, with what the key holds then; when the key changed
// while the read was in flight (after the earliest moment it could have taken
// effect), the explorer may also answer with any value the key held in
// between, so a value read before another worker changed it can still come
// back after the change, and a cache filled from it, or a decision taken on
// it, meets the schedule where it is stale. This adds choices only where a key
// changed under a read in flight, so it costs little where reads are quick.
//
// A stateful service's reads (the methods it lists under `reads`) are explored
// the same way: when the part of its state they see (its `view`) changed while
// one was in flight, it may answer as the service stood at any moment since it
// could first have taken effect. So may a read whose answer changes on its own at
// given moments (the service's `changesAt`: a segment that lands at 1 s), as of
// each moment before one it was in flight across.
//
// While the scenario's delays last, such an older answer may also come back
// as late as the read's latency allows (late-answers.mjs), with the world going
// on meanwhile: a read that took effect just before a change and answers at its
// slowest is the longest a stale value can stay on its way.

import { STORE } from './calls.mjs';
import { READ_OPERATIONS } from './store.mjs';

/**
 * The stale-read choices on offer now: for each store or service read that
 * could arrive now, one per older value of its key (or view of its service)
 * since the read could first have taken effect, answered now, and, while delays
 * last, one answered at the read's deadline.
 * @param {import('./world.mjs').World} world
 * @param {{ op: object }[]} ready the call choices on offer now
 */
export function staleReadChoices(world, ready) {
  const mayHold = (op) => world.delays < world.limits.maxDelays && op.deadline > world.now;
  return ready.flatMap(({ op }) => olderReads(world, op).flatMap((read, i) => [
    { id: `stale:${op.id}:${i}`, kind: 'stale', op, read },
    ...(mayHold(op) ? [{ id: `stale:${op.id}:${i}:late`, kind: 'stale', op, read, late: true }] : []),
  ]));
}

/** What a read could have answered earlier in its flight: [{ value, at }] for the store, [{ view, at }] for a service. */
function olderReads(world, op) {
  if (op.target === STORE) {
    if (!READ_OPERATIONS.has(op.name) || typeof op.args?.[0] !== 'string') return [];
    return world.store.valuesSince(op.args[0], op.issuedAt, op.soonest, world.now);
  }
  if (!world.services.reads(op.target, op.name)) return [];
  return world.services.viewsSince(op.target, op.issuedAt, op.soonest, world.now);
}
