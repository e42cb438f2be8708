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
 *   quota:<partnerId>:<window start, epoch ms>   the requests counted so far, refused ones included
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
 * @typedef {object} Decision
 * @property {boolean} allowed whether the request may be sent
 * @property {number} limit the partner's quota per window
 * @property {number} used requests counted in this window, this one included when allowed
 * @property {number} resetAt epoch ms when the next window starts
 */

/** How close to its window's end a request can still be counted in it, in ms. */
const LAST_COUNTABLE_MS = 250;

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
export function createQuota({ store, clock, windowMs, counterTtlMs, logger = silentLogger, metrics = createMetrics() }) {
  return {
    /** Counts one request of `partnerId` against its quota, or refuses it. */
    async take(partnerId, limit, context = {}) {
      const now = clock.now();
      const windowStart = windowStartOf(now, windowMs);
      const key = counterKey(partnerId, windowStart);
      const resetAt = windowStart + windowMs;

      // A store call takes up to 250 ms: a request received closer than
      // that to the window's end could be counted after the window is over.
      // It is refused instead, and the partner retries in the next window.
      if (resetAt - now < LAST_COUNTABLE_MS) {
        metrics.increment('quota refusals');
        return { allowed: false, limit, used: limit, resetAt };
      }

      // The store decides: the window's counter is created together with its
      // expiry (never without one), then counted in one step, and the count
      // the store returns is this request's place in the window.
      await store.setIfAbsent(key, '0', { ttlMs: counterTtlMs });
      const used = await store.incrBy(key, 1);
      logger.debug({ ...context, partner: partnerId, key, msg: 'quota counted', used, limit });
      if (used > limit) {
        metrics.increment('quota refusals');
        return { allowed: false, limit, used: limit, resetAt };
      }

      metrics.increment('quota grants');
      return { allowed: true, limit, used, resetAt };
    },
  };
}
