/**
 * POST /v1/payments/{paymentId}/capture
 *
 * Validates the request, hands it to the capture service and turns the
 * service's outcome into the response the API contract promises (README.md,
 * "The capture endpoint").
 */

import { BadRequestError, json, problem } from '../http/responses.js';

/** Idempotency-Key: what the checkout sends (a UUID) and anything similar. */
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,128}$/;
const CURRENCY = /^[A-Z]{3}$/;

/**
 * @param {object} deps
 * @param {{ capture: (command: object) => Promise<import('./capture-service.js').CaptureOutcome> }} deps.service
 * @param {import('../config.js').ApiConfig} deps.config
 * @returns {(request: import('../http/responses.js').ApiRequest, params: { paymentId: string }) => Promise<import('../http/responses.js').ApiResponse>}
 */
export function createCaptureRoute({ service, config }) {
  return async function captureRoute(request, { paymentId }) {
    const idempotencyKey = request.headers['idempotency-key'];
    if (!idempotencyKey) {
      throw new BadRequestError('missing_idempotency_key', 'Captures need an Idempotency-Key header; reuse it when you retry.');
    }
    if (!IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new BadRequestError('invalid_idempotency_key', 'Idempotency-Key must be 8-128 characters of A-Z, a-z, 0-9, _ . : -');
    }
    const { amount, currency } = request.body ?? {};
    if (!Number.isInteger(amount) || amount <= 0) {
      throw new BadRequestError('invalid_amount', 'amount must be a positive integer in minor units.');
    }
    if (typeof currency !== 'string' || !CURRENCY.test(currency)) {
      throw new BadRequestError('invalid_currency', 'currency must be an ISO 4217 code such as GBP.');
    }

    const outcome = await service.capture({
      paymentId,
      amount,
      currency,
      idempotencyKey,
      requestId: request.headers['x-request-id'],
    });

    switch (outcome.kind) {
      case 'captured':
        return json(200, outcome.capture, outcome.replayed ? { 'idempotent-replayed': 'true' } : {});
      case 'in_progress':
        return problem(409, 'capture_in_progress',
          'A request with this Idempotency-Key is still being processed. Retry after Retry-After seconds with the same key.',
          { 'retry-after': String(config.retryAfterSeconds) });
      case 'key_reused':
        return problem(422, 'idempotency_key_reused',
          'This Idempotency-Key was already used for a different payment, amount or currency.');
      case 'psp_error':
        return problem(502, 'psp_unavailable',
          `Kestrel Pay did not capture the payment (${outcome.code}). Retry with the same Idempotency-Key.`);
      default:
        throw new Error(`capture service returned an unknown outcome ${JSON.stringify(outcome)}`);
    }
  };
}
