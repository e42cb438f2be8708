/**
 * Handles one delivery of a shipment-notification message.
 *
 * For each delivery the consumer:
 *   1. takes the job lock, so that no other worker handles the same job now;
 *   2. checks the job's sent-record, so that a job already notified is not
 *      notified again;
 *   3. sends the notification through the provider;
 *   4. writes the sent-record;
 *   5. releases the job lock.
 *
 * The outcome tells the pool what to do with the delivery:
 *   'sent'       this worker sent the notification               → ack
 *   'duplicate'  the job had already been notified; nothing sent  → ack
 *   'busy'       another worker is handling the job right now     → do not ack;
 *                the queue delivers it again after the visibility timeout
 * Anything thrown is also left un-acked, and so retried.
 */

import { defaultConfig } from '../config.js';
import { createIdempotencyStore } from '../idempotency/store.js';
import { createJobLock } from '../locks/job-lock.js';
import { bindLogger, silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { createNotificationService } from '../notifications/service.js';
import { validateMessage } from '../queue/message.js';

/** @typedef {'sent' | 'duplicate' | 'busy'} Outcome */

/**
 * Creates the consumer of one worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId name of this worker, e.g. "blue"; unique among running workers
 * @param {import('../persistence/remote-store.js').KeyValueStore} deps.store the shared store
 * @param {import('../notifications/service.js').NotificationProvider} deps.provider the notification provider
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../logger.js').Logger} [deps.logger] defaults to a silent logger
 * @param {import('../metrics.js').Metrics} [deps.metrics] defaults to a fresh set of counters
 * @param {Partial<import('../config.js').WorkerConfig>} [deps.config] only lockTtlMs is used here
 * @returns {{ workerId: string, handle: (message: import('../queue/message.js').ShipmentMessage) => Promise<Outcome> }}
 */
export function createConsumer({
  workerId,
  store,
  provider,
  clock,
  logger = silentLogger,
  metrics = createMetrics(),
  config = defaultConfig,
}) {
  if (!workerId) throw new TypeError('createConsumer: workerId is required');
  if (!store) throw new TypeError('createConsumer: store is required');
  if (!clock) throw new TypeError('createConsumer: clock is required');

  const settings = { ...defaultConfig, ...config };
  const log = bindLogger(logger, { worker: workerId });
  const lock = createJobLock({ store, owner: workerId, ttlMs: settings.lockTtlMs, clock, logger: log });
  const sentRecords = createIdempotencyStore({ store, clock });
  const notifications = createNotificationService({ provider, logger: log });

  /**
   * Handles one delivery. See the top of this file for the outcomes.
   * @param {import('../queue/message.js').ShipmentMessage} message
   * @returns {Promise<Outcome>}
   */
  async function handle(message) {
    const { id, jobId, attempt } = validateMessage(message);
    metrics.increment('deliveries');
    log.info({ job: jobId, lock: 'checking', message: id, attempt });

    let token;
    try {
      token = await lock.acquire(jobId);
      if (token === null) {
        metrics.increment('lock contention');
        log.info({ job: jobId, lock: 'held', result: 'busy', message: id, attempt });
        return 'busy';
      }
      metrics.increment('lock claims');
      log.info({ job: jobId, lock: 'claimed', message: id, attempt });

      if (await sentRecords.wasSent(jobId)) {
        metrics.increment('idempotency hits');
        log.info({ job: jobId, result: 'duplicate', message: id, attempt });
        return 'duplicate';
      }

      const started = clock.now();
      const receipt = await notifications.sendShipmentNotification(message);
      metrics.increment('notification writes');

      await sentRecords.markSent(jobId, { ...receipt, workerId, messageId: id });
      metrics.increment('sent-record writes');

      log.info({
        job: jobId,
        result: 'sent',
        message: id,
        attempt,
        provider_message_id: receipt.providerMessageId,
        ms: clock.now() - started,
      });
      return 'sent';
    } finally {
      // Clean up whatever happened, even when the claim itself failed.
      if (token !== null) await lock.release(jobId, token);
    }
  }

  return { workerId, handle };
}
