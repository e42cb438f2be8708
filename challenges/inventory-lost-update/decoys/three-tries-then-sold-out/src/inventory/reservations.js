/**
 * Stock reservations.
 *
 * The units of a SKU still on sale live in the inventory cache under
 * `stock:<sku>`, as a base-10 integer string. The stock loader writes it when
 * a sale opens (src/inventory/stock-loader.js), the storefront badge reads it
 * (src/storefront/stock-badge.js), and checkout takes units off it here, and
 * puts them back when a charge does not go through.
 *
 * History: until 3.1 a reservation was an UPDATE of the SKU's row in the
 * inventory database, inside the transaction that also wrote the order
 * (SELECT … FOR UPDATE, then UPDATE, then COMMIT after the charge). On the
 * February drop that row lock, held through every PSP call, let only about six
 * checkouts a second through. INV-640 moved the number to the cache, where a
 * read and a write take about 2 ms each.
 *
 * Other pods change the counter between any two of our calls, so a value we
 * read may be stale by the time we write. Every change is therefore made so
 * that the cache, not this pod, decides on the current value:
 *   - reserve() reads the counter and writes the new value with
 *     compareAndSet, which only succeeds if nobody changed the counter since
 *     our read. If somebody did, that somebody took units: read again and
 *     decide again (maybe now it is sold out). The row lock used to give us
 *     this; nothing is held while the customer is being charged.
 *   - release() adds the units back with incrBy, one step in the cache.
 */

import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';

/**
 * How many times reserve() re-reads after losing a race before it gives up.
 * Each lost race means another checkout took units, so after three of them
 * the SKU is as good as gone: give up and answer sold-out.
 */
const MAX_ATTEMPTS = 3;

/**
 * The cache key holding the units of `sku` still on sale.
 * @param {string} sku
 * @returns {string}
 */
export function stockKey(sku) {
  return `stock:${sku}`;
}

/**
 * Units in a counter's raw value. A SKU that was never loaded (no key) has none.
 * @param {string | null} raw
 * @returns {number}
 */
export function parseUnits(raw) {
  if (raw === null) return 0;
  const units = Number(raw);
  if (!Number.isInteger(units)) throw new TypeError(`stock counter holds ${JSON.stringify(raw)}, not an integer`);
  return units;
}

/**
 * @typedef {object} Reservations
 * @property {(sku: string, quantity: number, context?: object) => Promise<boolean>} reserve
 *   Takes `quantity` units of `sku` off the counter for one order. Resolves
 *   true if they are now the order's, false if fewer were left (sold out).
 * @property {(sku: string, quantity: number, context?: object) => Promise<void>} release
 *   Puts units reserved earlier back on sale.
 */

/**
 * @param {object} deps
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store the inventory cache
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 * @returns {Reservations}
 */
export function createReservations({ store, clock, logger = silentLogger, metrics = createMetrics() }) {
  return {
    async reserve(sku, quantity, context = {}) {
      const key = stockKey(sku);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
        let started = clock.now();
        const raw = await store.get(key);
        const available = parseUnits(raw);
        logger.debug({ ...context, sku, key, msg: 'stock read', available, attempt, await: 'remote read', ms: clock.now() - started });
        if (available < quantity) return false;

        const remaining = available - quantity;
        started = clock.now();
        // Write only if the counter still holds what we read.
        if (await store.compareAndSet(key, raw, String(remaining))) {
          logger.debug({ ...context, sku, key, msg: 'stock write', remaining, attempt, await: 'remote write', ms: clock.now() - started });
          metrics.increment('stock reservations', quantity);
          return true;
        }
        metrics.increment('reservation conflicts');
        logger.debug({ ...context, sku, key, msg: 'stock changed since read; reading again', expected: raw, attempt });
      }
      // Lost every race: the others must have taken what was left.
      return false;
    },

    async release(sku, quantity, context = {}) {
      const key = stockKey(sku);
      const remaining = await store.incrBy(key, quantity);
      logger.debug({ ...context, sku, key, msg: 'stock released', remaining });
      metrics.increment('stock releases', quantity);
    },
  };
}
