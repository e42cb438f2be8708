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
 * Two round trips per reservation, and two checkouts can interleave between
 * them (INV-702). Both problems go away if the pod keeps the count itself:
 * the first reservation of a SKU loads the counter once (concurrent first
 * reservations share that load), after which units are taken off the local
 * count synchronously, with no await between the check and the decrement,
 * so no other checkout can slip in. Every change is written through to the
 * cache so the storefront badge stays right. The local count is refreshed
 * from the cache after REFRESH_MS.
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

/** How long a pod trusts its own count before loading the counter again. */
const REFRESH_MS = 5_000;

/** This pod's view of each counter: key -> { units, loaded: Promise, loadedAt }. */
const local = new Map();

/**
 * @param {object} deps
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store the inventory cache
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 * @returns {Reservations}
 */
export function createReservations({ store, clock, logger = silentLogger, metrics = createMetrics() }) {
  /** The pod's count for `key`, loading it when missing or old. */
  function countFor(key) {
    const entry = local.get(key);
    if (entry && clock.now() - entry.loadedAt < REFRESH_MS) return entry;
    const fresh = { units: 0, loadedAt: clock.now(), loaded: null };
    fresh.loaded = store.get(key).then((raw) => { fresh.units = parseUnits(raw); });
    local.set(key, fresh);
    return fresh;
  }

  return {
    async reserve(sku, quantity, context = {}) {
      const key = stockKey(sku);
      const count = countFor(key);
      await count.loaded;

      // From here to the write there is no await: check and decrement are one
      // synchronous step, so no other checkout of this pod can slip in between.
      logger.debug({ ...context, sku, key, msg: 'stock read (pod count)', available: count.units });
      if (count.units < quantity) return false;
      count.units -= quantity;
      const remaining = count.units;

      await store.set(key, String(remaining)); // write-through, for the badge
      logger.debug({ ...context, sku, key, msg: 'stock write', remaining });
      metrics.increment('stock reservations', quantity);
      return true;
    },

    async release(sku, quantity, context = {}) {
      const key = stockKey(sku);
      const count = countFor(key);
      await count.loaded;
      count.units += quantity;
      const remaining = count.units;
      await store.set(key, String(remaining));
      logger.debug({ ...context, sku, key, msg: 'stock released', remaining });
      metrics.increment('stock releases', quantity);
    },
  };
}
