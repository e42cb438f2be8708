// Keys and leases that run out while their holder is still at work.
//
// The clock moves only to points where something happens: a call becoming
// ready, a timer, a delivery, a wake. A key written with an expiry runs out on
// the way, but nothing stops there, so a call in flight whose latency spans
// the expiry always arrived before it or after the next of those points, never
// just after it. When the worker that wrote the key (or holds the service
// lease) still has a call in flight that may complete after the expiry, the
// clock may stop at the expiry too: the holder's call can then arrive after its
// own lease or cache entry ran out, and the other workers can act in between,
// as with a renewal racing its lease, a fill lease shorter than the query it
// covers, or a marker that runs out under its holder. The stop is a delay like
// any other (the clock moves while calls are ready), so it counts against
// maxDelays, and it is offered beside the move to the next event, not instead.

/**
 * The clock stops for expiries on offer now: each key (or service lease) that
 * runs out later than now and before a call of its writer in flight may complete.
 * @param {import('./world.mjs').World} world
 * @returns {{ id: string, kind: 'clock', worker: string, due: number }[]}
 */
export function expiryStops(world) {
  const { now } = world;
  const working = new Map();
  for (const op of world.pending) {
    if (world.awake(op.worker)) working.set(op.worker, Math.max(working.get(op.worker) ?? -Infinity, op.deadline));
  }
  if (working.size === 0) return [];
  const expiries = [
    ...world.store.live(now).filter(([, e]) => e.expiresAt !== null).map(([key, e]) => ({ key, worker: e.writer, until: e.expiresAt })),
    ...[...working.keys()].flatMap((worker) => world.services.leasesOf(worker, now).map((l) => ({ key: l.key, worker, until: l.until }))),
  ];
  return expiries.filter(({ worker, until }) => until > now && until <= (working.get(worker) ?? -Infinity))
    .map(({ key, worker, until }) => ({ id: `expires:${key}`, kind: 'clock', worker, due: until }));
}
