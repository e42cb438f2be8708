// Which scheduling choices commute. Two choices are independent when taking them in
// either order reaches the same state; the explorer then needs only one order.

import { READ_OPERATIONS } from './store.mjs';
import { STORE, effectOf, faultOf } from './calls.mjs';

/**
 * Describes a choice for the independence check.
 * @param {{ kind: string, due?: number, worker?: string, delivery?: { worker: string },
 *           op?: { worker: string, target: string, name: string, args: unknown[] } }} choice
 * @param {import('./world.mjs').World} world the world offering it
 */
export function footprint(choice, world) {
  const { now } = world;
  // A call taking effect affects the same state whether its answer comes at once
  // or late, and a read is a read whichever value it answers.
  if (choice.kind === 'op' || choice.kind === 'late' || choice.kind === 'stale') {
    const { worker, target, name, args } = choice.op;
    const sensitive = orderSensitive(world, choice.op);
    const stateful = world.services.has(target) || sensitive;
    const parts = stateful && !sensitive ? world.services.touches(target, name, args) : undefined;
    return { kind: 'op', worker, target, name, key: Array.isArray(args) ? args[0] : undefined, service: stateful, read: READ_OPERATIONS.has(name), parts };
  }
  // Moving the clock, or freezing a worker (which may wait out leases others touch), depends on everything.
  if (choice.kind === 'clock' || choice.kind === 'pause') return { kind: 'time' };
  // Waking a frozen worker now only lets its own code run again; but it may
  // wake at any later point of its window too, after the clock moved on, which
  // the explorer must leave room for (source-sets.mjs, deferrable).
  if (choice.kind === 'wake') return { kind: 'local', worker: choice.worker, deferrable: true };
  if (choice.kind === 'deliver') {
    // Two deliveries of one job number their attempts in the order they happen.
    return { kind: choice.due > now ? 'time' : 'local', worker: choice.delivery.worker, job: choice.delivery.job };
  }
  return { kind: choice.due > now ? 'time' : 'local', worker: choice.worker };
}

/** Reports whether two choices commute. */
export function independent(a, b) {
  // Moving the clock changes what every later operation sees (leases expire).
  if (a.kind === 'time' || b.kind === 'time') return false;
  // Two steps of the same worker resume its code in a different order.
  if (a.worker === b.worker) return false;
  // Two deliveries of the same job: whichever comes first is attempt 1.
  if (a.job !== undefined && a.job === b.job) return false;
  // A timer or delivery due now only resumes its own worker's code.
  if (a.kind === 'local' || b.kind === 'local') return true;
  // Two calls of a service that names the parts of its state they touch
  // commute when they share none.
  if (a.target === b.target && a.parts && b.parts) return !a.parts.some((part) => b.parts.includes(part));
  // A stateful service's calls may see each other's effects, and so may an
  // effect's calls when its reply or failure depends on how many came before:
  // any two such calls to the same target are dependent. Other side effects only
  // add to a tally whose order no property reads; the store, the lock service and
  // each service share no state.
  if (a.target === b.target && (a.service || b.service)) return false;
  const shared = (t) => t === 'store' || t === 'locks';
  if (!shared(a.target) || !shared(b.target) || a.target !== b.target) return true;
  if (typeof a.key !== 'string' || typeof b.key !== 'string') return false;
  if (a.key !== b.key) return true;
  return a.read && b.read;
}

/**
 * A taken choice's footprint, from what taking it did. A store call that left
 * the store as it was (a compare-and-set or set-if-absent that did not write,
 * an expire of an absent key) was, in the state where it was taken, a read: a
 * read commutes with it there, and so does another call that changes nothing,
 * since neither changes what the other finds. That stays true while the call
 * sleeps (explorer.mjs), for only a step it depends on can change its key. The
 * failures a suite injects stay dependent when their count matters (service).
 * @param {object} footprint the choice's footprint before it was taken
 * @param {boolean} unchanged whether the store is as it was before the choice was taken
 */
export function takenFootprint(footprint, unchanged) {
  if (!unchanged || footprint.read || footprint.kind !== 'op' || footprint.target !== STORE || footprint.service) return footprint;
  return { ...footprint, read: true };
}

/**
 * Whether the answer to a call may depend on the calls before it: an effect
 * whose reply, failure or key reads the call's count, or a store or lock fault
 * whose failure does.
 */
function orderSensitive(world, op) {
  const reads = (fn) => fn && /\b(count|failures)\b/.test(String(fn));
  const effect = effectOf(world, op);
  if (effect && [effect.reply, effect.fail, effect.key].some(reads)) return true;
  return reads(faultOf(world, op)?.fail);
}
