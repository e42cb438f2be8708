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
  /** @type {Map<string, { quote: { sku: string, cents: number }, until: number }>} */
  const cached = new Map();

  return {
    /**
     * The current quote for a product.
     * @param {string} sku
     * @returns {Promise<{ sku: string, cents: number }>}
     */
    async quote(sku) {
      const hit = cached.get(sku);
      if (hit && hit.until > clock.now()) return hit.quote;
      const quote = await pricing.quote(sku);
      cached.set(sku, { quote, until: clock.now() + TTL_MS });
      return quote;
    },
  };
}
