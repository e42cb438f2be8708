/**
 * Captures an authorised payment at Kestrel, at most once per Idempotency-Key.
 *
 * The checkout sends every capture with an Idempotency-Key and sends the same
 * key again when it retries (after a timeout, a 5xx or a 409). A retry can
 * arrive while the first attempt is still waiting for Kestrel, on another
 * instance. So the key is reserved in the shared store *before* Kestrel is
 * called (src/idempotency/records.js), in one atomic step:
 *
 *   - the request that reserves the key captures, then stores the answer;
 *   - a request that finds the key pending answers 409 capture_in_progress
 *     (the checkout retries after Retry-After and then gets the answer);
 *   - a request that finds the answer gets it again, without calling Kestrel;
 *   - if Kestrel did not capture, the reservation is removed so that a retry
 *     with the same key can try again.
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
/** How long a request waits for another request's capture with its key: Kestrel's timeout and a margin. */
const WAIT_FOR_CAPTURE_MS = 12_000;
/** How often a waiting request looks at the key again. */
const WAIT_POLL_MS = 250;

export function createCaptureService({ instanceId, store, psp, clock, config, logger = silentLogger, metrics = createMetrics() }) {
  const records = createIdempotencyRecords({ store, instanceId, ttlMs: config.idempotencyTtlMs, clock });

  async function capture({ paymentId, amount, currency, idempotencyKey, requestId }) {
    const log = logger.child({ payment: paymentId, idem_key: idempotencyKey, request_id: requestId });
    const fingerprint = fingerprintOf({ paymentId, amount, currency });

    // Claim the key before anything else: of all the requests carrying it,
    // on every instance, exactly one goes on to Kestrel. A request that finds
    // the key pending waits for that capture's answer instead of sending the
    // checkout away with a 409: it looks again every WAIT_POLL_MS, for as long
    // as a capture can take, and answers with the capture once it is stored.
    const waitUntil = clock.now() + WAIT_FOR_CAPTURE_MS;
    let claim = await records.reserve(idempotencyKey, fingerprint);
    while (!claim.reserved) {
      const existing = claim.record;
      if (existing && existing.fingerprint !== fingerprint) {
        log.warn('capture.key_reused', { stored: existing.fingerprint, sent: fingerprint });
        return { kind: 'key_reused' };
      }
      if (existing?.state === 'completed') {
        metrics.increment('idempotency replays');
        log.info('capture.replayed', { idempotency: 'hit', capture: existing.response.captureId, saved_by: existing.savedBy });
        return { kind: 'captured', capture: existing.response, replayed: true };
      }
      if (clock.now() >= waitUntil) {
        metrics.increment('idempotency in progress');
        log.info('capture.in_progress', { idempotency: 'pending', reserved_by: existing?.reservedBy });
        return { kind: 'in_progress' };
      }
      // Pending: another request is at Kestrel with this key right now. Wait
      // for its answer; if it fails, the key is free again and this request
      // takes it.
      await clock.sleep(WAIT_POLL_MS);
      claim = await records.reserve(idempotencyKey, fingerprint);
    }
    log.info('capture.begin', { idempotency: 'reserved', amount, currency });

    const started = clock.now();
    let result;
    try {
      metrics.increment('kestrel capture calls');
      result = await psp.capture({ paymentId, amount, currency, reference: idempotencyKey });
    } catch (error) {
      // Kestrel did not capture: give the key back (only our own
      // reservation) so that a retry with the same key may try again.
      metrics.increment('kestrel capture errors');
      log.warn('kestrel.capture.failed', { code: error?.code ?? 'unknown', ms: clock.now() - started });
      await records.release(claim.reservation);
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
    await records.complete(claim.reservation, response);
    log.info('idempotency.saved', { capture: result.captureId });
    return { kind: 'captured', capture: response, replayed: false };
  }

  return { capture };
}
