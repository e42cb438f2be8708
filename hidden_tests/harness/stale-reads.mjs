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

import { STORE } from './calls.mjs';
import { READ_OPERATIONS } from './store.mjs';

/**
 * The stale-read choices on offer now: for each store read that could arrive
 * now, one per older value its key held since the read could first have taken effect.
 * @param {import('./world.mjs').World} world
 * @param {{ op: object }[]} ready the call choices on offer now
 */
export function staleReadChoices(world, ready) {
  return ready.filter(({ op }) => op.target === STORE && READ_OPERATIONS.has(op.name) && typeof op.args?.[0] === 'string')
    .flatMap(({ op }) => world.store.valuesSince(op.args[0], op.issuedAt, op.soonest, world.now)
      .map(({ value, at }, i) => ({ id: `stale:${op.id}:${i}`, kind: 'stale', op, read: { value, at } })));
}
