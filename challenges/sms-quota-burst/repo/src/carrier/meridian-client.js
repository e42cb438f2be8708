/**
 * Hands messages to Meridian SMS, the carrier, through its submit API.
 *
 * `carrier.send(submission)` is one HTTPS call to POST /v2/messages:
 *
 *   { sub_account: "kw-lindqvist-dental", to: "+46701234567", text: "...", client_ref: "r-7f3a1c" }
 *   → { id: "mer_0f9c2a", status: "queued" }
 *
 * Meridian answers 503 when a submit node is overloaded. SMS-233 repeats such
 * a call once, after carrierRetryDelayMs, with the same client_ref: Meridian
 * treats a client_ref it has seen in the last 24 h as the same message and
 * answers with its first id, so a repeat never sends (or bills) twice.
 */

import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';

/** Raised when Meridian did not accept a message after every attempt. */
export class CarrierUnavailableError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'CarrierUnavailableError';
  }
}

/**
 * @typedef {object} Carrier
 * @property {(submission: { sub_account: string, to: string, text: string, client_ref: string }) => Promise<{ id: string, status: string }>} send
 */

/**
 * @param {object} deps
 * @param {Carrier} deps.carrier Meridian's submit API
 * @param {import('../clock.js').Clock} deps.clock
 * @param {number} [deps.attempts]
 * @param {number} [deps.retryDelayMs]
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 */
export function createMeridianClient({ carrier, clock, attempts = 2, retryDelayMs = 200, logger = silentLogger, metrics = createMetrics() }) {
  return {
    /**
     * Submits one message of `partnerId`; resolves to Meridian's message id.
     * @param {import('../request.js').SmsRequest} request
     * @returns {Promise<string>}
     */
    async submit(request) {
      const submission = {
        sub_account: `kw-${request.partnerId}`,
        to: request.to,
        text: request.text,
        client_ref: request.requestId,
      };
      for (let attempt = 1; ; attempt++) {
        metrics.increment('carrier submissions');
        try {
          const reply = await carrier.send(submission);
          return reply.id;
        } catch (error) {
          const overloaded = /\b503\b/.test(String(error?.message ?? error));
          if (!overloaded || attempt >= attempts) {
            throw new CarrierUnavailableError(`Meridian did not accept ${request.requestId}: ${error?.message ?? error}`);
          }
          logger.warn({ req: request.requestId, msg: 'meridian overloaded, retrying', attempt });
          metrics.increment('carrier retries');
          await clock.sleep(retryDelayMs);
        }
      }
    },
  };
}
