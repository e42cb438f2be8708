/**
 * Partner quotas on fixed windows.
 *
 * A partner may make `limit` requests in each window. Windows are aligned to
 * the clock (06:00:00.000–06:00:00.999 is one window of 1000 ms), because
 * Meridian counts a sub-account's messages per clock second and bills what
 * goes over its committed rate as overage. A request belongs to the window in
 * which the gateway received it.
 *
 * Every gateway pod counts in the quota store, under one key per partner and
 * window:
 *
 *   quota:<partnerId>:<window start, epoch ms>   the requests let through so far
 *
 * Each counter is kept for counterTtlMs (src/config.js) and then expires on
 * its own, so the store only ever holds the counters of the last few windows.
 *
 * History: until 4.6 each pod kept its counts in a Map in memory, which was
 * exact with one pod. GW-412 moved them to the quota store so that the two
 * pods of 4.7 share one count per partner.
 */

import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';

/**
 * The start of the window `now` falls in.
 * @param {number} now epoch ms
 * @param {number} windowMs
 * @returns {number} epoch ms
 */
export function windowStartOf(now, windowMs) {
  return now - (now % windowMs);
}

/**
 * The store key of a partner's counter for one window.
 * @param {string} partnerId
 * @param {number} windowStart epoch ms
 * @returns {string}
 */
export function counterKey(partnerId, windowStart) {
  return `quota:${partnerId}:${windowStart}`;
}

/**
 * Requests counted in a counter's raw value. No key: none yet in that window.
 * @param {string | null} raw
 * @returns {number}
 */
export function parseCount(raw) {
  if (raw === null) return 0;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 0) throw new TypeError(`quota counter holds ${JSON.stringify(raw)}, not a count`);
  return count;
}

/**
 * @typedef {object} Decision
 * @property {boolean} allowed whether the request may be sent
 * @property {number} limit the partner's quota per window
 * @property {number} used requests counted in this window, this one included when allowed
 * @property {number} resetAt epoch ms when the next window starts
 */

/**
 * @param {object} deps
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store the quota store
 * @param {import('../clock.js').Clock} deps.clock
 * @param {number} deps.windowMs
 * @param {number} deps.counterTtlMs
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 * @returns {{ take(partnerId: string, limit: number, context?: object): Promise<Decision> }}
 */
const LOCK_LEASE_MS = 300; // a store round trip is about a millisecond: plenty
const LOCK_POLL_MS = 5;

export function createQuota({ store, clock, windowMs, counterTtlMs, logger = silentLogger, metrics = createMetrics() }) {
  let seq = 0;
  return {
    async take(partnerId, limit, context = {}) {
      const windowStart = windowStartOf(clock.now(), windowMs);
      const key = counterKey(partnerId, windowStart);
      const resetAt = windowStart + windowMs;
      const lockKey = `lock:${key}`;
      const token = `${context.req ?? 'req'}:${++seq}`;
      while (!(await store.setIfAbsent(lockKey, token, { ttlMs: LOCK_LEASE_MS }))) await clock.sleep(LOCK_POLL_MS);
      try {
        const used = parseCount(await store.get(key));
        if (used >= limit) {
          metrics.increment('quota refusals');
          return { allowed: false, limit, used, resetAt };
        }
        await store.set(key, String(used + 1), { ttlMs: counterTtlMs });
        metrics.increment('quota grants');
        return { allowed: true, limit, used: used + 1, resetAt };
      } finally {
        await store.delete(lockKey);
      }
    },
  };
}
