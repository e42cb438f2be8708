// The properties of the usage-rollup-stale-write suite: what must hold of the
// rollup store and the lease grants in every schedule.

import { LEASE, ROLLUP, SEGMENTS, segmentCount, segmentsIn } from './month.mjs';

/**
 * The last of `records` (lease grants or listings) a write's writer made before
 * the write: its own request's where that request made one, else its worker's.
 * A compactor handles several deliveries at once, and each takes its own lease
 * and lists for itself; a worker's record serves a request that made none.
 * Only records `about` says are relevant count. Returns its index, or -1.
 */
function lastBefore(records, write, about = () => true) {
  const mine = (r) => about(r) && r.worker === write.worker && r.at <= write.at;
  const own = records.findLastIndex((r) => mine(r) && r.request === write.request);
  return own >= 0 ? own : records.findLastIndex(mine);
}

/**
 * The index, among the lease grants, of the lease on LEASE a write was made
 * under: the grant whose token it carries, else (a write with a token no grant
 * of LEASE answered) the last its writer took before it.
 */
function leaseOf(grants, write) {
  const fenced = grants.findIndex((g) => g.key === LEASE && g.token === write.token);
  return fenced >= 0 ? fenced : lastBefore(grants, write, (g) => g.key === LEASE);
}

/**
 * Whether a write was merged from a listing its writer made before it took
 * the lease it wrote under (or from no listing at all).
 */
function listedBeforeLease(world, grants, write) {
  const lease = grants[leaseOf(grants, write)];
  const listings = world.services.state('segments').listings;
  const listing = listings[lastBefore(listings, write)];
  return !lease || !listing || listing.at < lease.at;
}

/** How messages name the writers of two writes: by their requests too when one compactor made both. */
function writers(a, b) {
  return a.worker === b.worker && a.request !== b.request
    ? [`${a.worker} (${a.request})`, `${b.worker} (${b.request})`] : [a.worker, b.worker];
}

/**
 * Writes are accepted in lease order: no write made under an older lease is
 * accepted after a write made under a newer one. And no rollup is replaced by
 * one merged from a listing made before its writer took its lease: segments
 * only ever land, so such a write counts fewer of them than the rollup it
 * replaced. A write is made under the lease whose token it carries. (A holder whose lease ran out may still list after the new holder
 * did and write first; the new holder's rollup then replaces it with the
 * listing it made under its lease, as the README allows, and the next
 * compaction counts the segment that landed in between.)
 */
export const noStaleWrite = {
  end(world) {
    const { grants } = world.services.state('leases');
    const writes = world.services.state('rollups').accepted.filter((w) => w.key === ROLLUP);
    for (let i = 1; i < writes.length; i++) {
      const [before, after] = [writes[i - 1], writes[i]];
      const [later, earlier] = writers(after, before);
      if (leaseOf(grants, after) < leaseOf(grants, before)) {
        world.violate('noStaleWrite',
          `${later} wrote ${ROLLUP} (${segmentsIn(after.value)}) at ${after.at} ms under a lease it had lost: `
          + `${earlier} had taken the lease after it and written its rollup (${segmentsIn(before.value)}) at ${before.at} ms, `
          + `and the rollup store accepted the older compaction over the newer one`);
        return;
      }
      if (segmentCount(after.value) < segmentCount(before.value) && listedBeforeLease(world, grants, after)) {
        world.violate('noStaleWrite',
          `${later} wrote ${ROLLUP} (${segmentsIn(after.value)}) at ${after.at} ms over the rollup ${earlier} `
          + `had written at ${before.at} ms (${segmentsIn(before.value)}): it merged a listing made before the lease it wrote under was granted, `
          + `and invoicing would read a month missing segments`);
        return;
      }
    }
  },
};

/**
 * When the acknowledged delivery that was received last was received, in ms,
 * or undefined when none was acknowledged. Each delivery's own receive step,
 * by its request: one compactor may receive the job twice at once.
 */
function lastAckedReceivedAt(world) {
  const received = world.trace.filter((s) => s.operation === 'receive');
  const times = world.deliveries.filter((d) => d.acked)
    .map((d) => received.find((s) => s.request === d.request)?.at)
    .filter((at) => at !== undefined);
  return times.length > 0 ? Math.max(...times) : undefined;
}

/**
 * The rollup exists once every delivery is done, and counts every segment that
 * had landed when the last acknowledged delivery was received: an acknowledged
 * request is never asked again, so the segments it was requested for have to
 * be in the rollup it leaves behind.
 */
export const rollupWritten = {
  end(world) {
    const stored = world.services.state('rollups').data[ROLLUP];
    // Numbered as the trace numbers deliveries of the message (delivery 1, 2, …).
    const outcomes = () => world.deliveries.map((d) => (d.attempt === 0 ? `${d.worker}: not delivered`
      : `${d.worker}, delivery ${d.messageAttempt}: ${d.outcome ?? 'never finished'}`)).join('; ');
    if (stored === undefined) {
      world.violate('rollupWritten', `${ROLLUP} was never written (${outcomes()})`);
      return;
    }
    const at = lastAckedReceivedAt(world);
    const landed = at === undefined ? 0 : SEGMENTS.filter((s) => s.landedAt <= at).length;
    if ((segmentCount(stored) ?? 0) < landed) {
      world.violate('rollupWritten',
        `${ROLLUP} holds ${segmentsIn(stored)}, but ${landed} had landed when the request last acknowledged arrived at ${at} ms `
        + `(${outcomes()}): the request is done, nothing will ask again, and invoicing would read a month missing segments`);
    }
  },
};
