// Which scheduling choices commute. Two choices are independent when taking them in
// either order reaches the same state; the explorer then needs only one order.

import { READ_OPERATIONS } from './store.mjs';

/**
 * Describes a choice for the independence check.
 * @param {{ kind: string, due?: number, worker?: string, delivery?: { worker: string },
 *           op?: { worker: string, target: string, name: string, args: unknown[] } }} choice
 * @param {number} now the virtual time when the choice is offered
 */
export function footprint(choice, now) {
  if (choice.kind === 'op') {
    const { worker, target, name, args } = choice.op;
    return { kind: 'op', worker, target, name, key: Array.isArray(args) ? args[0] : undefined };
  }
  if (choice.kind === 'clock') return { kind: 'time' };
  const worker = choice.kind === 'deliver' ? choice.delivery.worker : choice.worker;
  return { kind: choice.due > now ? 'time' : 'local', worker };
}

/** Reports whether two choices commute. */
export function independent(a, b) {
  // Moving the clock changes what every later operation sees (leases expire).
  if (a.kind === 'time' || b.kind === 'time') return false;
  // Two steps of the same worker resume its code in a different order.
  if (a.worker === b.worker) return false;
  // A timer or delivery due now only resumes its own worker's code.
  if (a.kind === 'local' || b.kind === 'local') return true;
  // Side effects only add to a tally whose order no property reads; the store and
  // the lock service share no state.
  const shared = (t) => t === 'store' || t === 'locks';
  if (!shared(a.target) || !shared(b.target) || a.target !== b.target) return true;
  if (typeof a.key !== 'string' || typeof b.key !== 'string') return false;
  if (a.key !== b.key) return true;
  return READ_OPERATIONS.has(a.name) && READ_OPERATIONS.has(b.name);
}
