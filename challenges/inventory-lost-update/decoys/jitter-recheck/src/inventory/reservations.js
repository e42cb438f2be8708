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
 * Two pods that read the counter in the same millisecond both wrote the same
 * value (INV-702). Before writing we now wait a short, per-order jitter and
 * read again: if the counter moved, another checkout got there first and we
 * start over from the new value. The jitter differs per order, so two
 * checkouts that collided once do not wake at the same moment again.
 */

import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';

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

/** Longest jitter before the confirming read, and how often to start over. */
const MAX_JITTER_MS = 25;
const ATTEMPTS = 5;

/** A stable jitter per order (no Math.random: the same order always waits the same). */
function jitterFor(orderId = '') {
  let hash = 0;
  for (const ch of orderId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return 5 + (hash % (MAX_JITTER_MS - 4));
}

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
      for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
        const raw = await store.get(key);
        const available = parseUnits(raw);
        logger.debug({ ...context, sku, key, msg: 'stock read', available, attempt });
        if (available < quantity) return false;

        await clock.sleep(jitterFor(context.order));
        if ((await store.get(key)) !== raw) {
          metrics.increment('reservation conflicts');
          continue; // someone else reserved meanwhile: start over
        }
        const remaining = available - quantity;
        await store.set(key, String(remaining));
        logger.debug({ ...context, sku, key, msg: 'stock write', remaining, attempt });
        metrics.increment('stock reservations', quantity);
        return true;
      }
      throw new Error(`stock of ${sku} kept changing; try again`);
    },

    async release(sku, quantity, context = {}) {
      const key = stockKey(sku);
      const remaining = await store.incrBy(key, quantity);
      logger.debug({ ...context, sku, key, msg: 'stock released', remaining });
      metrics.increment('stock releases', quantity);
    },
  };
}
