/**
 * Places one order, behind POST /checkouts:
 *
 *   1. reserve the units in the inventory cache (src/inventory/reservations.js);
 *   2. charge the customer through the PSP (src/payments/psp-client.js);
 *   3. if the charge did not go through, put the units back.
 *
 * `handle(request)` resolves to the outcome the storefront shows:
 *
 *   'confirmed'  units reserved and the customer charged: the order is paid
 *   'sold-out'   fewer units left than the order asks for; nothing charged
 *   'declined'   the bank refused the card; the units are back on sale
 *
 * It throws when the outcome is unknown (the PSP could not be reached after
 * its retries, the cache is down); the units are put back first when they can
 * be, and the storefront shows "something went wrong, you were not charged".
 *
 * Each pod builds one checkout at start-up. Pods share nothing but the
 * inventory cache, the orders database and the PSP.
 */

import { defaultConfig } from '../config.js';
import { createReservations } from '../inventory/reservations.js';
import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { createPspClient } from '../payments/psp-client.js';
import { validateCheckoutRequest } from './request.js';

/** @typedef {'confirmed' | 'sold-out' | 'declined'} Outcome */

/**
 * @param {object} deps
 * @param {string} deps.podId this pod's name, e.g. checkout-7d9f6c5b8-2xkqp
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store the inventory cache
 * @param {import('../payments/psp-client.js').Psp} deps.psp the PSP
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 * @param {Partial<import('../config.js').CheckoutConfig>} [deps.config]
 * @returns {{ podId: string, handle: (request: unknown) => Promise<Outcome> }}
 */
export function createCheckout({ podId, store, psp, clock, logger = silentLogger, metrics = createMetrics(), config = defaultConfig }) {
  if (!podId) throw new TypeError('createCheckout: podId is required');
  if (!store) throw new TypeError('createCheckout: store is required');
  if (!clock) throw new TypeError('createCheckout: clock is required');

  const settings = { ...defaultConfig, ...config };
  const log = logger.with({ pod: podId });
  const reservations = createReservations({ store, clock, logger: log, metrics });
  const payments = createPspClient({
    psp, clock, logger: log, metrics, attempts: settings.pspAttempts, retryDelayMs: settings.pspRetryDelayMs,
  });

  /**
   * @param {unknown} request body of POST /checkouts
   * @returns {Promise<Outcome>}
   */
  async function handle(request) {
    const order = validateCheckoutRequest(request, settings);
    const { orderId, sku, quantity } = order;
    const context = { order: orderId };
    const started = clock.now();
    metrics.increment('checkout requests');
    log.info({ msg: 'checkout', order: orderId, sku, qty: quantity });

    if (!(await reservations.reserve(sku, quantity, context))) {
      metrics.increment('sold-out refusals');
      log.info({ order: orderId, sku, result: 'sold-out', ms: clock.now() - started });
      return 'sold-out';
    }
    log.info({ order: orderId, sku, result: 'reserved', qty: quantity });

    let receipt;
    try {
      receipt = await payments.charge(order);
    } catch (error) {
      await reservations.release(sku, quantity, { ...context, reason: 'charge failed' });
      throw error;
    }

    if (receipt.status !== 'succeeded') {
      await reservations.release(sku, quantity, { ...context, reason: receipt.declineCode ?? 'declined' });
      metrics.increment('charges declined');
      log.info({ order: orderId, sku, result: 'declined', decline_code: receipt.declineCode ?? undefined, ms: clock.now() - started });
      return 'declined';
    }

    metrics.increment('orders confirmed');
    log.info({ order: orderId, sku, result: 'confirmed', charge: receipt.chargeId, attempts: receipt.attempts, ms: clock.now() - started });
    return 'confirmed';
  }

  return { podId, handle };
}
