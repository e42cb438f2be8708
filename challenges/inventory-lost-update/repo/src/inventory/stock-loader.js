/**
 * Opens a sale: copies the units on hand from the inventory database into the
 * cache counters that checkout reserves from.
 *
 * The warehouse counts the bags for a drop the evening before; the loader runs
 * once, a minute before the drop opens (cron `sale-open`, see the runbook).
 * After that only checkout changes the counters, until the sale is closed and
 * the nightly reconciliation writes the database back.
 */

import { stockKey } from './reservations.js';
import { silentLogger } from '../logger.js';

/**
 * @typedef {object} SaleLot
 * @property {string} sku e.g. FH-LOT7-GESHA-250
 * @property {number} units bags on hand for the sale
 */

/**
 * Writes every lot's counter, replacing what was there.
 *
 * @param {object} options
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store the inventory cache
 * @param {SaleLot[]} options.lots
 * @param {import('../logger.js').Logger} [options.logger]
 * @returns {Promise<Record<string, number>>} the units loaded, by SKU
 */
export async function loadSaleStock({ store, lots, logger = silentLogger }) {
  const loaded = {};
  for (const { sku, units } of lots) {
    if (typeof sku !== 'string' || sku === '') throw new TypeError('loadSaleStock: every lot needs a sku');
    if (!Number.isInteger(units) || units < 0) throw new RangeError(`loadSaleStock: ${sku} has ${units} units`);
    await store.set(stockKey(sku), String(units));
    logger.info({ msg: 'sale stock loaded', sku, units });
    loaded[sku] = units;
  }
  return loaded;
}
