// The blocking lock service: row-style locks that make a caller wait until the key
// is free. An acquire is only deliverable while nobody else holds its key, so two
// workers waiting for each other's keys leave the schedule with nothing to do: a
// deadlock the explorer reports with its cycle.

import { requestLabel } from './trace.mjs';

/** Lock-service operations that answer without waiting. */
const NON_BLOCKING = new Set(['tryAcquire', 'release']);

/**
 * Exclusive, non-reentrant locks, each held by the request that took it (a
 * delivery of a worker), as a lock service holds a lock for the session that
 * took it: another request of the same worker waits for it like any other, and
 * cannot release it.
 */
export class LockService {
  /** key → { worker, request }: request is the delivery, or null for a call outside any. */
  #holders = new Map();

  /** The request holding `key` ({ worker, request }), if any. */
  holder(key) {
    return this.#holders.get(key);
  }

  /** Every [key, { worker, request }] pair currently held. */
  held() {
    return [...this.#holders.entries()];
  }

  /** Whether the call can complete now (a blocking acquire waits for a free key). */
  ready(op) {
    return NON_BLOCKING.has(op.name) || op.name !== 'acquire' || !this.#holders.has(op.args?.[0]);
  }

  /** Frees every lock the requests of a worker held: its sessions ended (it crashed). */
  releaseAll(worker) {
    for (const [key, holder] of this.#holders) if (holder.worker === worker) this.#holders.delete(key);
  }

  /**
   * Applies one call of `owner` ({ worker, request }) and returns its result.
   * @returns {boolean} whether the lock was taken or released
   */
  apply(name, args, owner) {
    const [key] = args;
    if (typeof key !== 'string') throw new TypeError(`${name}(): key must be a string`);
    switch (name) {
      case 'acquire':
      case 'tryAcquire':
        if (this.#holders.has(key)) return false;
        this.#holders.set(key, { worker: owner.worker, request: owner.request ?? null });
        return true;
      case 'release':
        if (!sameOwner(this.#holders.get(key), owner)) return false;
        this.#holders.delete(key);
        return true;
      default:
        throw new TypeError(`the lock service has no operation ${name}()`);
    }
  }
}

/** Whether two lock owners are the same request of the same worker. */
export function sameOwner(a, b) {
  return a !== undefined && b !== undefined && a.worker === b.worker && (a.request ?? null) === (b.request ?? null);
}

/**
 * How messages name a lock owner: its worker, and the request too when the
 * worker has several (`blue (job-7 #1)`).
 * @param {{ worker: string, request: object | null }} owner
 * @param {object[]} deliveries every delivery of the schedule
 */
export function ownerName(owner, deliveries) {
  const several = deliveries.filter((d) => d.worker === owner.worker).length > 1;
  return several && owner.request ? `${owner.worker} (${requestLabel(owner.request)})` : owner.worker;
}
