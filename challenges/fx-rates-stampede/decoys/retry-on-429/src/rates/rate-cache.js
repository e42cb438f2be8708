/**
 * Exchange rates, cached in the shared store in front of Ratewire.
 *
 * A rate is kept under fx:rate:<currency> for ten minutes (RATE_TTL_SECONDS),
 * shared by both processes, so that Ratewire is asked for a currency at most
 * once every ten minutes instead of once per page view. Since v3.0 a rate is
 * loaded when a request misses it; the five-minute refresher is gone.
 */

import { silentLogger } from '../logger.js';

/** The store key of a currency's cached rate. */
export const rateKey = (currency) => `fx:rate:${currency}`;

/**
 * Creates the rate cache of one process.
 * @param {object} deps
 * @param {import('../store/remote-store.js').KeyValueStore} deps.store the shared store
 * @param {import('./ratewire-client.js').RatesProvider} deps.provider Ratewire
 * @param {import('../clock.js').Clock} deps.clock
 * @param {number} deps.ttlMs how long a rate stays cached
 * @param {import('../logger.js').Logger} [deps.log]
 * @param {ReturnType<import('../metrics.js').createMetrics>} [deps.metrics]
 */
export function createRateCache({ store, provider, clock, ttlMs, log = silentLogger, metrics }) {
  /** The cached quote of a currency, or null. */
  async function cached(currency) {
    const value = await store.get(rateKey(currency));
    return value === null ? null : JSON.parse(value);
  }

  /** Asks Ratewire for a currency's rate and caches it for everyone. */
  async function load(currency) {
    metrics?.inc('ratewire_requests_total');
    const started = clock.now();
    let quote;
    for (let attempt = 1; !quote; attempt++) {
      try {
        quote = await provider.latest(currency);
      } catch (error) {
        // Over the plan's rate: back off for a second, then ask again.
        if (!/429/.test(error.message) || attempt === 5) throw error;
        await clock.sleep(1_000);
      }
    }
    await store.set(rateKey(currency), JSON.stringify(quote), { ttlMs });
    log.info({ currency, ratewire: 'ok', rate: quote.rate, ms: clock.now() - started });
    return quote;
  }

  return {
    /**
     * The current quote of a currency: the cached one, or a fresh one from Ratewire.
     * @param {string} currency an ISO code checkout supports
     * @returns {Promise<import('./ratewire-client.js').Quote>}
     */
    async rateFor(currency) {
      const hit = await cached(currency);
      if (hit) {
        metrics?.inc('rate_cache_hits_total');
        return hit;
      }
      metrics?.inc('rate_cache_misses_total');
      log.info({ currency, cache: 'miss' });
      return load(currency);
    },
  };
}
