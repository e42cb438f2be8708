/**
 * GET /stock/{sku}/badge: the "Only 3 left" badge on a product page.
 *
 * On drop day nearly every page view asks for the badge, so the CDN caches the
 * answer for `badgeMaxAgeSeconds` (30 s since WEB-1207; it was 5 s). A badge
 * can therefore be up to 30 s old. That is accepted: the badge is advice, and
 * whether a customer can still buy is decided at checkout, by the reservation,
 * never by what the page showed.
 */

import { parseUnits, stockKey } from '../inventory/reservations.js';

/** Below this many units the badge counts down. */
const LOW_STOCK = 10;

/**
 * The badge text for a number of units. Negative numbers read as none left.
 * @param {number} units
 * @returns {{ text: string, tone: 'plenty' | 'low' | 'gone' }}
 */
export function badgeFor(units) {
  const left = Math.max(0, units);
  if (left === 0) return { text: 'Sold out', tone: 'gone' };
  if (left <= LOW_STOCK) return { text: left === 1 ? 'Last bag!' : `Only ${left} left`, tone: 'low' };
  return { text: 'In stock', tone: 'plenty' };
}

/**
 * @param {object} deps
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store the inventory cache
 * @param {number} deps.maxAgeSeconds how long the CDN may serve the answer
 * @returns {(sku: string) => Promise<{ status: number, headers: Record<string, string>, body: string }>}
 */
export function createBadgeHandler({ store, maxAgeSeconds }) {
  return async (sku) => {
    const badge = badgeFor(parseUnits(await store.get(stockKey(sku))));
    return {
      status: 200,
      headers: {
        'content-type': 'application/json',
        'cache-control': `public, max-age=${maxAgeSeconds}`,
      },
      body: JSON.stringify({ sku, ...badge }),
    };
  };
}
