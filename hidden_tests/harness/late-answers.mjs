// Answers that arrive late: a renewal takes effect where it goes, and its
// answer is still on its way back.
//
// A call's latency covers the trip there and the trip back. Taking effect and
// answering at one instant keeps the two trips' sum but never lets the world
// move on between them, so a worker always learns of a renewal the moment it
// happened, and the lease it renewed always has its whole length left when the
// worker hears of it. Here the explorer may also let a renewal take effect now
// and hold its answer until the latest moment the call's latency allows, while
// timers, expiries and the other workers go on, so a lease end measured from
// the answer, or a renewal margin shorter than a round trip, meets its
// schedule. Holding an answer is a delay like any other (the clock moves on
// while something could arrive), so it counts against maxDelays, and it is
// offered after every other choice, so the schedules explored first, and the
// first counterexamples, stay the same.
//
// At the slow pace, where every call answers as late as its latency allows (or
// at one worker's slow pace, where its calls do),
// every call that takes or renews a lease (leaseCall) takes effect as soon as
// it may and answers at its deadline: that is the latest a lease's holder can
// learn of it, so a lease sized to just cover the work after the claim runs
// out under it, and a worker may freeze between the grant and its answer, so
// what it reads from its own clock once it hears of the grant (a fence, a
// deadline) can be later than the grant itself. This replaces the call's
// answer at its deadline, so it adds no schedule and no delay.
//
// Otherwise only renewals, and reads that answer an older value
// (stale-reads.mjs), get late answers. Offering one to every call, or to every
// call in whose window something else is due, costs 5 to 20 times the work on
// the built-in suites and runs correct polling fixes out of their budgets (and
// to every first claim, 2 to 7 times).

import { answer, STORE } from './calls.mjs';
import { requestLabel } from './trace.mjs';

/**
 * The late-answer choices on offer now: at the slow pace (for one worker's
 * calls, at its own slow pace), each call that could arrive now, whose latency
 * still has room, and that takes or renews a lease (leaseCall); otherwise,
 * while the scenario's delays last, each such call that renews a lease its
 * worker holds (the lease runs from when the call took effect, not from when
 * its worker heard of it).
 * @param {import('./world.mjs').World} world
 * @param {{ op: object }[]} ready the call choices on offer now
 */
export function lateChoices(world, ready) {
  const delaysLeft = world.delays < world.limits.maxDelays;
  const mayBeLate = (op) => (world.slowFor(op.worker) ? leaseCall(op, world.services) : delaysLeft && renews(world, op));
  return ready.filter(({ op }) => op.deadline > world.now && mayBeLate(op))
    .map(({ op }) => ({ id: `late:${op.id}`, kind: 'late', op }));
}

/**
 * Whether a call renews a lease its worker holds: a store call that moves a
 * key's expiry (expire, compareAndExpire, or a write with ttlMs over the
 * worker's own key), or a call to a service about a lease the worker holds. Its
 * worker learns of the new lease end only when the answer arrives, later than
 * the lease started to run. A first claim is not one: a worker that measures
 * a lease from when it heard of it only loses that part of it, which matters
 * once it renews.
 */
function renews(world, op) {
  const key = op.args?.[0];
  if (op.target !== STORE) return world.services.leasesOf(op.worker, world.now).some((l) => l.key === key);
  if (op.name === 'expire' || op.name === 'compareAndExpire') return true;
  const withTtl = (op.args ?? []).some((a) => a !== null && typeof a === 'object' && a.ttlMs !== undefined);
  return withTtl && typeof key === 'string' && world.store.entry(key, world.now)?.writer === op.worker;
}

/**
 * Whether a call takes or renews a lease, whatever the state it meets: a store
 * claim with a lease (setIfAbsent with ttlMs), a store call that only moves a
 * key's expiry (expire, compareAndExpire), or a call of one of a service's
 * leaseMethods. At the slow pace such a call takes effect at once and answers
 * at its deadline (lateChoices). Other writes with ttlMs (a record kept for a
 * day, a value replaced under a lease) keep landing at their deadline there,
 * as late as a write that ends a piece of work can land.
 * @param {{ target: string, name: string, args?: unknown[] }} op
 * @param {import('./services.mjs').Services} services
 */
export function leaseCall(op, services) {
  if (op.target !== STORE) return services.leaseMethod(op.target, op.name);
  if (op.name === 'expire' || op.name === 'compareAndExpire') return true;
  return op.name === 'setIfAbsent' && (op.args ?? []).some((a) => a !== null && typeof a === 'object' && a.ttlMs !== undefined);
}

/**
 * The held answers on offer now (their time has come and their worker is awake)
 * and the points the clock must stop at for the others.
 * @returns {{ now: object[], stops: object[] }}
 */
export function heldAnswerChoices(world) {
  const waiting = world.held.filter((h) => world.awake(h.worker));
  return {
    now: waiting.filter((h) => h.at <= world.now).map((h) => ({ id: `answer:${h.id}`, kind: 'answer', worker: h.worker, held: h })),
    stops: waiting.filter((h) => h.at > world.now).map((h) => ({ id: `ready:answer:${h.id}`, kind: 'clock', worker: h.worker, due: h.at })),
  };
}

/** The latest time the clock may move to without passing a held answer. */
export function heldAnswersBound(world) {
  return Math.min(...world.held.filter((h) => world.awake(h.worker)).map((h) => Math.max(h.at, world.now)));
}

/**
 * Lets a call take effect now and holds its answer until its deadline (unless its worker crashed on it): a
 * delay, except at the slow pace, where it is how a lease call is answered.
 * @param {{ at: number }} [read] for a read, the older value or view it answers, as it stood at `at` (stale-reads.mjs)
 */
export function takeLate(world, op, read) {
  if (!world.slowFor(op.worker)) world.delays += 1;
  world.pending = world.pending.filter((p) => p !== op);
  const { ok, value, error, crashed } = answer(world, op, { answerAt: op.deadline, read });
  if (crashed) return;
  world.held.push({ id: op.id, worker: op.worker, localId: op.localId, name: op.name, key: String(op.args?.[0] ?? ''),
    call: op.call, at: op.deadline, tookEffectAt: read?.at ?? world.now, ok, value, error });
}

/** Takes a held answer off the list, records its arrival, and returns the reply command for its worker. */
export function releaseHeld(world, held) {
  world.held = world.held.filter((h) => h !== held);
  world.step(held.worker, 'answer', held.key, `the answer of ${held.name}() arrives (it took effect at ${held.tookEffectAt} ms)`,
    { request: requestLabel(world.calls.get(held.call)) });
  const { localId: id, ok, value, error } = held;
  return { t: 'reply', id, ok, value, error, now: world.now };
}
