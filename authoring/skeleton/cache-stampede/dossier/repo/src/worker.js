/**
 * Answers price requests from the product pages. One worker process handles
 * many requests at once. handle(request) answers the product's quote, or
 * 'unavailable' (the page shows "price unavailable") when the pricing service
 * could not give one.
 */

import { createPriceCache } from './price-cache.js';

/**
 * Creates the worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "blue"
 * @param {{ quote(sku: string): Promise<{ sku: string, cents: number }> }} deps.pricing the pricing service
 * @param {{ now(): number, sleep(ms: number): Promise<void> }} deps.clock
 * @returns {{ workerId: string, handle(request: { requestId: string, sku: string }): Promise<object | 'unavailable'> }}
 */
export function createWorker({ workerId, pricing, clock }) {
  const prices = createPriceCache({ pricing, clock });

  async function handle(request) {
    try {
      const quote = await prices.quote(request.sku);
      return { requestId: request.requestId, sku: quote.sku, cents: quote.cents };
    } catch {
      return 'unavailable';
    }
  }

  return { workerId, handle };
}
