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
 * Two pods could both read the same number and both write the same result
 * (INV-702), so the write is now a compareAndSet: it only lands if the
 * counter still holds what we read. When it does not land, the cache was just
 * busy with another pod's write; back off briefly and try the write again.
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

/** How many times a write that lost a race is tried again, and the pause between. */
const WRITE_ATTEMPTS = 4;
const BACKOFF_MS = 15;

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
      const started = clock.now();
      const raw = await store.get(key);
      const available = parseUnits(raw);
      logger.debug({ ...context, sku, key, msg: 'stock read', available, await: 'remote read', ms: clock.now() - started });
      if (available < quantity) return false;

      const remaining = String(available - quantity);
      for (let attempt = 1; attempt <= WRITE_ATTEMPTS; attempt += 1) {
        // Only lands if nobody changed the counter since our read.
        if (await store.compareAndSet(key, raw, remaining)) {
          logger.debug({ ...context, sku, key, msg: 'stock write', remaining, attempt });
          metrics.increment('stock reservations', quantity);
          return true;
        }
        metrics.increment('reservation conflicts');
        await clock.sleep(BACKOFF_MS * attempt);
      }
      // Lost every time: the other checkouts got there first.
      logger.info({ ...context, sku, key, msg: 'stock write kept losing; treating as sold out' });
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
