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
 */

import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';

/**
 * Per-SKU queue of reservations in flight, shared by every checkout in this
 * pod's process. A reservation starts only once the one before it on the same
 * SKU has written its count, so two checkouts can no longer both read the last
 * bag. It hangs off `process`, the one object every module of the pod shares,
 * whichever copy of this module a route imported.
 * @type {Map<string, Promise<void>>}
 */
const reservationQueues = (process.fhReservationQueues ??= new Map());

/**
 * Runs `fn` once every earlier call for `key` in this process has finished.
 * @template T
 * @param {string} key
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function oneAtATime(key, fn) {
  const previous = reservationQueues.get(key) ?? Promise.resolve();
  let done;
  const current = new Promise((resolve) => { done = resolve; });
  const tail = previous.then(() => current);
  reservationQueues.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    done();
    if (reservationQueues.get(key) === tail) reservationQueues.delete(key);
  }
}

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
    reserve(sku, quantity, context = {}) {
      const key = stockKey(sku);
      return oneAtATime(key, async () => {

      // INV-640 tracing: one debug line per round trip to the cache.
      let started = clock.now();
      const available = parseUnits(await store.get(key));
      logger.debug({ ...context, sku, key, msg: 'stock read', available, await: 'remote read', ms: clock.now() - started });
      if (available < quantity) return false;

      const remaining = available - quantity;
      started = clock.now();
      await store.set(key, String(remaining));
      logger.debug({ ...context, sku, key, msg: 'stock write', remaining, await: 'remote write', ms: clock.now() - started });
      metrics.increment('stock reservations', quantity);
      return true;
      });
    },

    release(sku, quantity, context = {}) {
      const key = stockKey(sku);
      return oneAtATime(key, async () => {
        const available = parseUnits(await store.get(key));
        await store.set(key, String(available + quantity));
        logger.debug({ ...context, sku, key, msg: 'stock released', remaining: available + quantity });
        metrics.increment('stock releases', quantity);
      });
    },
  };
}
