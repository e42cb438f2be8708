/**
 * Partner quotas on fixed windows.
 *
 * A partner may make `limit` requests in each window. Windows are aligned to
 * the clock (06:00:00.000–06:00:00.999 is one window of 1000 ms), because
 * Meridian counts a sub-account's messages per clock second and bills what
 * goes over its committed rate as overage. A request belongs to the window in
 * which the gateway received it.
 *
 * Every gateway pod takes its share of the quota in the quota store, one key
 * per unit of a partner's quota in each window:
 *
 *   quota:<partnerId>:<window start, epoch ms>:<n>   taken by the n-th request sent in that window
 *
 * A request takes the first unit nobody holds, with setIfAbsent, so two
 * requests can never take the same one; when all `limit` are taken, the
 * window's quota is used up. Each key is kept for counterTtlMs (src/config.js)
 * and then expires on its own, so the store only ever holds the keys of the
 * last few windows.
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
      const windowStart = windowStartOf(clock.now(), windowMs);
      const key = counterKey(partnerId, windowStart);
      const resetAt = windowStart + windowMs;

      // One key per unit of the quota, each created with its expiry: the
      // first unit this request can take is its place in the window.
      let used = 0;
      for (let slot = 1; slot <= limit; slot += 1) {
        if (await store.setIfAbsent(`${key}:${slot}`, '1', { ttlMs: counterTtlMs })) { used = slot; break; }
      }
      if (used === 0) {
        metrics.increment('quota refusals');
        return { allowed: false, limit, used: limit, resetAt };
      }

      metrics.increment('quota grants');
      return { allowed: true, limit, used, resetAt };
    },
  };
}
