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
  /** @type {Map<string, Promise<{ sku: string, cents: number }>>} the fetch in flight for each product */
  const fetching = new Map();

  return {
    /**
     * The current quote for a product.
     * @param {string} sku
     * @returns {Promise<{ sku: string, cents: number }>}
     */
    async quote(sku) {
      const hit = cached.get(sku);
      if (hit && hit.until > clock.now()) return hit.quote;
      // One fetch per product at a time: requests that miss while it is in
      // flight wait for it. Once it settles it is forgotten, so a failed fetch
      // is tried again by the next request instead of failing it too.
      if (!fetching.has(sku)) {
        const fetch = pricing.quote(sku).then((quote) => {
          cached.set(sku, { quote, until: clock.now() + TTL_MS });
          return quote;
        });
        fetching.set(sku, fetch);
        fetch.then(() => fetching.delete(sku), () => fetching.delete(sku));
      }
      return fetching.get(sku);
    },
  };
}
