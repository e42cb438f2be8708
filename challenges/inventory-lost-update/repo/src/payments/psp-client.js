/**
 * Charges customers through Kestrel Pay, the payment service provider (PSP).
 *
 * Every charge carries an idempotency key, `charge:<orderId>`. Kestrel Pay
 * keeps the first answer it gave for a key for 24 hours: a second request with
 * the same key does not charge again, it replays that answer (and says so with
 * `idempotent_replay: true`). That is what makes a retry safe, and why the key
 * is derived from the order and never from the attempt.
 *
 * Since PAY-388 a charge that times out is sent once more, after a short
 * pause: at drop opening the PSP's latency can spike past our 800 ms time-out
 * while the charge itself went through.
 *
 * @typedef {object} ChargeRequest
 * @property {string} orderId
 * @property {string} customerId
 * @property {string} paymentMethod the customer's saved card, e.g. pm_1Qx…
 * @property {number} amountMinor in cents
 * @property {string} currency ISO 4217, e.g. EUR
 * @property {string} idempotencyKey charge:<orderId>
 *
 * @typedef {object} PspReply
 * @property {string} id the PSP's charge id, ch_…
 * @property {'succeeded' | 'declined'} status
 * @property {string} [decline_code] e.g. insufficient_funds
 * @property {boolean} [idempotent_replay] true when this answers an earlier request with the same key
 *
 * @typedef {object} Psp
 * @property {(request: ChargeRequest) => Promise<PspReply>} charge
 *
 * @typedef {object} Receipt
 * @property {string} chargeId
 * @property {'succeeded' | 'declined'} status
 * @property {string | null} declineCode
 * @property {number} attempts calls it took
 */

import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';

/** Thrown by a transport when the PSP did not answer in time. */
export class PspTimeoutError extends Error {
  constructor(message = 'PSP did not answer in time') {
    super(message);
    this.name = 'PspTimeoutError';
  }
}

/** The idempotency key of an order's charge. */
export function chargeKeyFor(orderId) {
  return `charge:${orderId}`;
}

/**
 * @param {object} deps
 * @param {Psp} deps.psp the PSP (or a transport to it)
 * @param {import('../clock.js').Clock} deps.clock
 * @param {number} [deps.attempts] calls per charge, the first included
 * @param {number} [deps.retryDelayMs] pause before a repeat
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 */
export function createPspClient({ psp, clock, attempts = 2, retryDelayMs = 250, logger = silentLogger, metrics = createMetrics() }) {
  if (!psp || typeof psp.charge !== 'function') throw new TypeError('createPspClient: psp.charge is required');

  return {
    /**
     * Charges an order's total to the customer's saved card.
     * @param {{ orderId: string, customerId: string, paymentMethod: string, amountMinor: number, currency: string }} order
     * @returns {Promise<Receipt>}
     * @throws {PspTimeoutError} when every attempt timed out; anything else the PSP threw, at once
     */
    async charge(order) {
      const request = {
        orderId: order.orderId,
        customerId: order.customerId,
        paymentMethod: order.paymentMethod,
        amountMinor: order.amountMinor,
        currency: order.currency,
        idempotencyKey: chargeKeyFor(order.orderId),
      };
      for (let attempt = 1; ; attempt += 1) {
        metrics.increment('charge attempts');
        try {
          const reply = await psp.charge(request);
          if (reply?.idempotent_replay) metrics.increment('idempotent replays');
          logger.debug({ order: order.orderId, msg: 'psp answered', attempt, charge: reply?.id, status: reply?.status, replay: reply?.idempotent_replay === true });
          return {
            chargeId: String(reply?.id ?? ''),
            status: reply?.status === 'succeeded' ? 'succeeded' : 'declined',
            declineCode: reply?.decline_code ?? null,
            attempts: attempt,
          };
        } catch (error) {
          if (!(error instanceof PspTimeoutError) || attempt >= attempts) throw error;
          metrics.increment('charge retries');
          logger.warn({ order: order.orderId, msg: 'psp timed out; retrying with the same key', attempt, idempotency_key: request.idempotencyKey });
          await clock.sleep(retryDelayMs);
        }
      }
    },
  };
}

/**
 * The production transport to Kestrel Pay's charges API.
 *
 * @param {object} options
 * @param {string} options.url e.g. https://api.kestrelpay.example/v2/charges
 * @param {string} options.apiKey
 * @param {number} [options.timeoutMs]
 * @param {typeof fetch} [options.fetch]
 * @returns {Psp}
 */
export function createKestrelPayTransport({ url, apiKey, timeoutMs = 800, fetch = globalThis.fetch }) {
  return {
    async charge(request) {
      let response;
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${apiKey}`,
            'idempotency-key': request.idempotencyKey,
          },
          body: JSON.stringify({
            amount: request.amountMinor,
            currency: request.currency,
            customer: request.customerId,
            payment_method: request.paymentMethod,
            metadata: { order_id: request.orderId },
          }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        if (error?.name === 'TimeoutError') throw new PspTimeoutError();
        throw error;
      }
      const body = await response.json().catch(() => ({}));
      if (response.status === 402) return { id: body.id, status: 'declined', decline_code: body.decline_code };
      if (!response.ok) throw new Error(`PSP answered HTTP ${response.status}: ${body.error?.message ?? 'no detail'}`);
      return { id: body.id, status: body.status, idempotent_replay: response.headers.get('idempotent-replayed') === 'true' };
    },
  };
}
