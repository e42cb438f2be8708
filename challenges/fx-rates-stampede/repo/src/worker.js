/**
 * Answers the checkout pages' rate requests. One process handles many requests
 * at once; blue and green are two such processes (deploy/fx-rates.yaml).
 *
 * handle(request) resolves to { requestId, currency, status: 'ok', rate, asOf }
 * or, when no rate could be had, { requestId, currency, status: 'unavailable' }:
 * the page then shows "rate unavailable" and hides the converted price.
 */

import { loadConfig } from './config.js';
import { silentLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createRateCache } from './rates/rate-cache.js';
import { supportedCurrency } from './rates/currencies.js';

/**
 * Creates the request handler of one process.
 * @param {object} deps
 * @param {string} deps.workerId the process's name, e.g. "blue"
 * @param {import('./store/remote-store.js').KeyValueStore} deps.store the shared store
 * @param {import('./rates/ratewire-client.js').RatesProvider} deps.provider Ratewire
 * @param {import('./clock.js').Clock} deps.clock
 * @param {import('./config.js').Config} [deps.config]
 * @param {import('./logger.js').Logger} [deps.log]
 * @param {ReturnType<typeof createMetrics>} [deps.metrics]
 */
export function createRatesWorker({ workerId, store, provider, clock, config = loadConfig({}), log = silentLogger, metrics = createMetrics() }) {
  const logger = log.child({ worker: workerId });
  const rates = createRateCache({ store, provider, clock, ttlMs: config.rateTtlMs, log: logger, metrics });

  /**
   * Handles one rate request.
   * @param {{ requestId: string, currency: string }} request
   */
  async function handle(request) {
    const currency = supportedCurrency(request.currency);
    metrics.inc('rate_requests_total');
    try {
      const quote = await rates.rateFor(currency);
      logger.debug({ request: request.requestId, currency, result: quote.rate });
      return { requestId: request.requestId, currency, status: 'ok', rate: quote.rate, asOf: quote.asOf };
    } catch (error) {
      metrics.inc('rate_unavailable_total');
      logger.warn({ request: request.requestId, currency, result: 'unavailable', error: error.message });
      return { requestId: request.requestId, currency, status: 'unavailable' };
    }
  }

  return { workerId, handle };
}
