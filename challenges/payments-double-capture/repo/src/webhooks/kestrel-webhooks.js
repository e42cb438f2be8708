/**
 * POST /v1/webhooks/kestrel
 *
 * Kestrel reports events (capture.succeeded, refund.succeeded, ...) by
 * webhook, at least once: an event it does not see acknowledged with a 2xx
 * within 5 s is delivered again, with the same event id, up to 8 times. The
 * receiver:
 *
 *   1. checks the signature header (HMAC-SHA256 of "<t>.<raw body>");
 *   2. claims the event id in the shared store with setIfAbsent, so that of
 *      all deliveries of one event, on whichever instances, exactly one is
 *      processed and every other one is acknowledged as a duplicate;
 *   3. processes the event (today: logs and counts it; the finance export
 *      reads these lines).
 *
 * Webhooks only report what already happened at Kestrel: nothing here
 * captures or refunds.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';
import { BadRequestError, json, problem } from '../http/responses.js';
import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';

/** Signatures older than this are refused (replay protection). */
const SIGNATURE_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * @param {object} deps
 * @param {string} deps.instanceId
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../config.js').ApiConfig} deps.config
 * @param {string | undefined} deps.secret KESTREL_WEBHOOK_SECRET; without it every webhook is refused
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 */
export function createWebhookRoute({ instanceId, store, clock, config, secret, logger = silentLogger, metrics = createMetrics() }) {
  return async function webhookRoute(request) {
    if (!secret || !validSignature(request.headers['kestrel-signature'], request.rawBody ?? '', secret, clock.now())) {
      return problem(401, 'invalid_signature', 'The Kestrel-Signature header does not match the body.');
    }
    const event = request.body;
    if (!event || typeof event.id !== 'string' || typeof event.type !== 'string') {
      throw new BadRequestError('invalid_event', 'A webhook event needs an id and a type.');
    }

    const first = await store.setIfAbsent(`webhook:${event.id}`, instanceId, { ttlMs: config.webhookDedupeTtlMs });
    if (!first) {
      metrics.increment('webhook duplicates');
      logger.info('webhook.duplicate', { event_id: event.id, type: event.type, delivery: request.headers['kestrel-delivery-attempt'] });
      return json(200, { received: true, duplicate: true });
    }

    metrics.increment('webhook events');
    const data = event.data ?? {};
    logger.info('webhook.received', {
      event_id: event.id,
      type: event.type,
      payment: data.payment_id,
      capture: data.capture_id,
      refund: data.refund_id,
      amount: data.amount,
      currency: data.currency,
    });
    return json(200, { received: true });
  };
}

/** Checks "t=<unix ms>,v1=<hex hmac>" against the raw body. */
function validSignature(header, rawBody, secret, now) {
  if (typeof header !== 'string') return false;
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2)));
  const sentAt = Number(parts.t);
  if (!Number.isFinite(sentAt) || Math.abs(now - sentAt) > SIGNATURE_TOLERANCE_MS || typeof parts.v1 !== 'string') return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
