/**
 * Captures an authorised payment at Kestrel, at most once per Idempotency-Key.
 *
 * The checkout sends every capture with an Idempotency-Key and sends the same
 * key again when it retries (after a timeout, a 5xx or a 409). The service
 * keeps the answer to each key in the shared store (src/idempotency/records.js)
 * so that a retry is answered with the capture that was already made instead
 * of capturing the customer's card a second time.
 *
 * capture() resolves to one of these outcomes; capture-route.js turns them
 * into HTTP responses:
 *
 *   { kind: 'captured', capture, replayed }  the capture for this key; replayed
 *                                            is true when it was made earlier
 *   { kind: 'in_progress' }                  another request with this key is
 *                                            being processed right now
 *   { kind: 'key_reused' }                   the key was used for another
 *                                            payment, amount or currency
 *   { kind: 'psp_error', code }              Kestrel did not capture; the
 *                                            caller may retry with the same key
 */

import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { createIdempotencyRecords, fingerprintOf } from '../idempotency/records.js';

/**
 * @typedef {object} CaptureCommand
 * @property {string} paymentId
 * @property {number} amount minor units
 * @property {string} currency
 * @property {string} idempotencyKey the caller's Idempotency-Key
 * @property {string} [requestId] for logs only
 *
 * @typedef {{ kind: 'captured', capture: object, replayed: boolean }
 *   | { kind: 'in_progress' }
 *   | { kind: 'key_reused' }
 *   | { kind: 'psp_error', code: string }} CaptureOutcome
 */

/**
 * @param {object} deps
 * @param {string} deps.instanceId
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store
 * @param {import('../psp/kestrel-client.js').PaymentProvider} deps.psp
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../config.js').ApiConfig} deps.config
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 * @returns {{ capture: (command: CaptureCommand) => Promise<CaptureOutcome> }}
 */
export function createCaptureService({ instanceId, store, psp, clock, config, logger = silentLogger, metrics = createMetrics() }) {
  const records = createIdempotencyRecords({ store, instanceId, ttlMs: config.idempotencyTtlMs, clock });

  async function capture({ paymentId, amount, currency, idempotencyKey, requestId }) {
    const log = logger.child({ payment: paymentId, idem_key: idempotencyKey, request_id: requestId });
    const fingerprint = fingerprintOf({ paymentId, amount, currency });

    // A retry of a request we already answered gets the same answer.
    const previous = await records.find(idempotencyKey);
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        log.warn('capture.key_reused', { stored: previous.fingerprint, sent: fingerprint });
        return { kind: 'key_reused' };
      }
      metrics.increment('idempotency replays');
      log.info('capture.replayed', { idempotency: 'hit', capture: previous.response.captureId, saved_by: previous.savedBy });
      return { kind: 'captured', capture: previous.response, replayed: true };
    }
    // Claim this exact request (its key and what it captures) before Kestrel,
    // so that a retry arriving meanwhile waits for our answer.
    const claimKey = `claim:${idempotencyKey}:${fingerprint}`;
    const token = `${instanceId}:${clock.now()}:${Math.random()}`;
    if (!(await store.setIfAbsent(claimKey, token, { ttlMs: 5 * 60 * 1000 }))) return { kind: 'in_progress' };
    const again = await records.find(idempotencyKey); // answered while we claimed?
    if (again) {
      if (again.fingerprint !== fingerprint) return { kind: 'key_reused' };
      return { kind: 'captured', capture: again.response, replayed: true };
    }
    log.info('capture.begin', { idempotency: 'claimed', amount, currency });

    const started = clock.now();
    let result;
    try {
      metrics.increment('kestrel capture calls');
      result = await psp.capture({ paymentId, amount, currency, reference: idempotencyKey });
    } catch (error) {
      // Kestrel did not capture, so there is nothing to remember: a retry
      // with the same key may try again.
      metrics.increment('kestrel capture errors');
      log.warn('kestrel.capture.failed', { code: error?.code ?? 'unknown', ms: clock.now() - started });
      await store.compareAndDelete(claimKey, token);
      return { kind: 'psp_error', code: error?.code ?? 'unknown' };
    } finally {
      metrics.observe('kestrel capture latency', clock.now() - started);
    }
    log.info('kestrel.capture.ok', { capture: result.captureId, ms: clock.now() - started });

    const response = {
      captureId: result.captureId,
      paymentId,
      status: 'captured',
      amount: result.amount,
      currency: result.currency,
      capturedAt: result.capturedAt,
    };
    await records.save(idempotencyKey, { fingerprint, response });
    log.info('idempotency.saved', { capture: result.captureId });
    return { kind: 'captured', capture: response, replayed: false };
  }

  return { capture };
}
