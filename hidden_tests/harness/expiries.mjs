// Keys and leases that run out while a call that can see them is in flight.
//
// The clock moves only to points where something happens: a call becoming
// ready, a timer, a delivery, a wake. A key written with an expiry runs out on
// the way, but nothing stops there, so a call in flight whose latency spans
// the expiry always arrived before it or after the next of those points, never
// just after it. The clock may therefore also stop at an expiry while a call
// that can tell the difference is in flight and may complete after it:
//
// - a call of the worker that wrote the key (or holds the service lease): its
//   call can then arrive after its own lease or cache entry ran out, and the
//   other workers can act in between, as with a renewal racing its lease, a
//   fill lease shorter than the query it covers, or a marker that runs out
//   under its holder;
// - another worker's call about the key, the first it sends whose latency
//   spans the expiry: a claim sent while the lease held can then land the
//   moment it ran out, before the holder's next timer or call, as a worker
//   that tries once and leaves the job to the holder meets it. Only the first:
//   a worker that polls sends a call every few milliseconds, and stopping the
//   clock for each would give one more long schedule per poll, each only
//   landing the same claim a poll later (the lock suite's polling fix went
//   from 2 schedules to past its budget).
//
// The stop is a delay like any other (the clock moves while calls are ready),
// so it counts against maxDelays, and it is offered beside the move to the
// next event, not instead.

/**
 * The expiry a new call of another worker watches, as `key@expiresAt`: the
 * key it is about is held by someone else and runs out within the call's
 * latency, and the call is its worker's first about that expiry. Undefined
 * otherwise. Records the watcher on the world.
 * @param {import('./world.mjs').World} world
 * @param {{ worker: string, args?: unknown[], issuedAt: number, deadline: number }} op a call just made
 * @returns {string | undefined}
 */
export function watchedExpiry(world, op) {
  const key = op.args?.[0];
  if (typeof key !== 'string') return undefined;
  const spanned = expiriesAt(world, op.issuedAt)
    .find((e) => e.key === key && e.worker !== op.worker && e.until > op.issuedAt && e.until <= op.deadline);
  if (!spanned) return undefined;
  const watch = `${key}@${spanned.until}`;
  const watcher = `${op.worker}|${watch}`;
  if (world.expiryWatchers.has(watcher)) return undefined;
  world.expiryWatchers.add(watcher);
  return watch;
}

/**
 * The clock stops for expiries on offer now: each key (or service lease) that
 * runs out later than now and before a call of its writer, or a call watching
 * it (watchedExpiry), in flight may complete.
 * @param {import('./world.mjs').World} world
 * @returns {{ id: string, kind: 'clock', worker: string, due: number }[]}
 */
export function expiryStops(world) {
  const { now } = world;
  const byWorker = new Map();
  const watched = new Map();
  const later = (map, name, deadline) => map.set(name, Math.max(map.get(name) ?? -Infinity, deadline));
  for (const op of world.pending) {
    if (!world.awake(op.worker)) continue;
    later(byWorker, op.worker, op.deadline);
    if (op.watches !== undefined) later(watched, op.watches, op.deadline);
  }
  if (byWorker.size === 0) return [];
  const reach = ({ key, worker, until }) => Math.max(byWorker.get(worker) ?? -Infinity, watched.get(`${key}@${until}`) ?? -Infinity);
  return expiriesAt(world, now).filter((e) => e.until > now && e.until <= reach(e))
    .map(({ key, worker, until }) => ({ id: `expires:${key}`, kind: 'clock', worker, due: until }));
}

/**
 * Everything live at `now` that will run out: store keys written with an
 * expiry, by their writer, and every worker's service leases.
 * @returns {{ key: string, worker: string, until: number }[]}
 */
function expiriesAt(world, now) {
  return [
    ...world.store.live(now).filter(([, e]) => e.expiresAt !== null).map(([key, e]) => ({ key, worker: e.writer, until: e.expiresAt })),
    ...world.workers.flatMap((worker) => world.services.leasesOf(worker, now).map((l) => ({ key: l.key, worker, until: l.until }))),
  ];
}
