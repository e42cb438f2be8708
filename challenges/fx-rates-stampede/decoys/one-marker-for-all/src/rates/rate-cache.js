/**
 * Exchange rates, cached in the shared store in front of Ratewire.
 *
 * A rate is kept under fx:rate:<currency> for ten minutes (RATE_TTL_SECONDS),
 * shared by both processes, so that Ratewire is asked for a currency at most
 * once every ten minutes instead of once per page view. Since v3.0 a rate is
 * loaded when a request misses it; the five-minute refresher is gone.
 *
 * Requests that miss a currency at the same time, in any process, share one
 * Ratewire request: the first takes fx:fetching:<currency> in the store and
 * loads the rate, the others wait for it to appear in the cache. A failed load
 * is not cached: its marker is removed, so the next miss asks again.
 */

import { randomUUID } from 'node:crypto';

import { silentLogger } from '../logger.js';

/** The store key of a currency's cached rate. */
export const rateKey = (currency) => `fx:rate:${currency}`;

/** The store key that says a process is loading rates right now: one load at a time. */
export const fetchingKey = () => 'fx:fetching';

/**
 * How long a fetching marker lives: well past the longest load (a Ratewire
 * request gives up after 800 ms; the store calls around it take 50 ms each),
 * so it only runs out when the process that took it died.
 */
export const FETCH_LEASE_MS = 3_000;

/**
 * How often a request that waits for another request's load looks at the
 * cache again. It waits at most as long as that load can take, or, if the
 * loader died, until the marker's lease ends.
 */
export const WAIT_POLL_MS = 300;

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
    const quote = await provider.latest(currency);
    await store.set(rateKey(currency), JSON.stringify(quote), { ttlMs });
    log.info({ currency, ratewire: 'ok', rate: quote.rate, ms: clock.now() - started });
    return quote;
  }

  /**
   * Loads the rate while holding the currency's fetching marker, then removes
   * the marker, whether the load succeeded or failed.
   */
  async function loadHolding(currency, marker) {
    try {
      // The rate may have arrived between our miss and taking the marker.
      return (await cached(currency)) ?? (await load(currency));
    } finally {
      await store.compareAndDelete(fetchingKey(currency), marker);
    }
  }

  return {
    /**
     * The current quote of a currency: the cached one, or a fresh one from Ratewire.
     * @param {string} currency an ISO code checkout supports
     * @returns {Promise<import('./ratewire-client.js').Quote>}
     */
    async rateFor(currency) {
      for (;;) {
        const hit = await cached(currency);
        if (hit) {
          metrics?.inc('rate_cache_hits_total');
          return hit;
        }
        const marker = randomUUID();
        if (await store.setIfAbsent(fetchingKey(currency), marker, { ttlMs: FETCH_LEASE_MS })) {
          metrics?.inc('rate_cache_misses_total');
          log.info({ currency, cache: 'miss' });
          return loadHolding(currency, marker);
        }
        // Another request is loading it: look again shortly.
        await clock.sleep(WAIT_POLL_MS);
      }
    },
  };
}
