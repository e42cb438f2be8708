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
 * Two pods could read the counter at the same moment (INV-702). A change of
 * the counter (its read and the write that depends on it) now holds a per-SKU
 * lock in the cache, `lock:stock:<sku>`, taken with setIfAbsent (a 10 s lease,
 * longer than the three calls it covers at their slowest, so a dead pod cannot
 * block a SKU) and given back with compareAndDelete. Nothing is held across
 * the charge.
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

/** Lease of a stock lock, and how long to wait for one before giving up. */
const LOCK_TTL_MS = 10_000;
const LOCK_WAIT_ATTEMPTS = 5;
const LOCK_WAIT_MS = 20;

let acquisitions = 0;

/**
 * @param {object} deps
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store the inventory cache
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 * @returns {Reservations}
 */
export function createReservations({ store, clock, logger = silentLogger, metrics = createMetrics() }) {
  /** Runs `work` while holding the stock lock of `sku`. */
  async function withStockLock(sku, work) {
    const lockKey = `lock:${stockKey(sku)}`;
    acquisitions += 1;
    const token = `${clock.now()}:${acquisitions}`;
    for (let attempt = 1; ; attempt += 1) {
      if (await store.setIfAbsent(lockKey, token, { ttlMs: LOCK_TTL_MS })) break;
      if (attempt >= LOCK_WAIT_ATTEMPTS) throw new Error(`stock lock of ${sku} is busy; try again`);
      await clock.sleep(LOCK_WAIT_MS);
    }
    try {
      return await work();
    } finally {
      await store.compareAndDelete(lockKey, token);
    }
  }

  return {
    async reserve(sku, quantity, context = {}) {
      const key = stockKey(sku);
      return withStockLock(sku, async () => {
        const available = parseUnits(await store.get(key));
        logger.debug({ ...context, sku, key, msg: 'stock read (locked)', available });
        if (available < quantity) return false;

        const remaining = available - quantity;
        await store.set(key, String(remaining));
        logger.debug({ ...context, sku, key, msg: 'stock write', remaining });
        metrics.increment('stock reservations', quantity);
        return true;
      });
    },

    async release(sku, quantity, context = {}) {
      const key = stockKey(sku);
      await withStockLock(sku, async () => {
        const available = parseUnits(await store.get(key));
        await store.set(key, String(available + quantity));
        logger.debug({ ...context, sku, key, msg: 'stock released', remaining: available + quantity });
      });
      metrics.increment('stock releases', quantity);
    },
  };
}
