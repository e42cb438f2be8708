/**
 * Runs the worker slots: each slot polls the queue, hands every delivery to its
 * own consumer and acks or leaves the delivery according to the outcome.
 *
 * In production every slot is its own process (deploy/worker.yaml runs
 * `concurrency` processes, each with --slot=<name>), so slots share nothing but
 * the queue and the store. For local runs `npm start` puts all slots in one
 * process; the pool still builds a separate consumer for each slot.
 */

import { silentLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { InvalidMessageError } from '../queue/message.js';

/** Outcomes after which the delivery is acked. */
const ACKED_OUTCOMES = new Set(['sent', 'duplicate']);

/**
 * @typedef {object} WorkerPool
 * @property {() => void} start starts every slot's polling loop
 * @property {() => Promise<void>} stop asks every loop to stop and waits for the deliveries in progress
 */

/**
 * Creates a pool of polling loops, one per slot.
 *
 * @param {object} options
 * @param {import('../queue/delivery.js').DeliveryQueue} options.queue
 * @param {string[]} options.slots slot names, one loop per name
 * @param {(workerId: string) => { handle: (message: object) => Promise<string> }} options.consumerFor
 *   builds the consumer of one slot
 * @param {import('../clock.js').Clock} options.clock
 * @param {number} options.pollIntervalMs pause after an empty receive
 * @param {import('../logger.js').Logger} [options.logger]
 * @param {import('../metrics.js').Metrics} [options.metrics]
 * @returns {WorkerPool}
 */
export function createWorkerPool({ queue, slots, consumerFor, clock, pollIntervalMs, logger = silentLogger, metrics = createMetrics() }) {
  if (slots.length === 0) throw new RangeError('createWorkerPool: at least one slot is required');
  let running = false;
  /** @type {Promise<void>[]} */
  let loops = [];

  async function runSlot(workerId) {
    const consumer = consumerFor(workerId);
    const log = logger.child({ worker: workerId });
    log.info({ msg: 'slot started' });
    while (running) {
      const delivery = await queue.receive();
      if (delivery === null) {
        await clock.sleep(pollIntervalMs);
        continue;
      }
      log.info({ msg: 'received', job: delivery.jobId, message: delivery.id, attempt: delivery.attempt });
      try {
        const outcome = await consumer.handle(delivery);
        if (ACKED_OUTCOMES.has(outcome)) {
          const removed = await queue.ack(delivery.receiptHandle);
          log.info({ msg: 'acked', job: delivery.jobId, message: delivery.id, outcome, removed });
        } else {
          log.info({ msg: 'left for redelivery', job: delivery.jobId, message: delivery.id, outcome });
        }
      } catch (error) {
        metrics.increment('handler errors');
        if (error instanceof InvalidMessageError) {
          await queue.ack(delivery.receiptHandle);
          log.error({ msg: 'dropped invalid message', message: delivery.id, error: error.message });
        } else {
          log.error({ msg: 'handler failed; left for redelivery', job: delivery.jobId, message: delivery.id, error: error.message });
        }
      }
    }
    log.info({ msg: 'slot stopped' });
  }

  return {
    start() {
      if (running) return;
      running = true;
      loops = slots.map((workerId) => runSlot(workerId));
    },
    async stop() {
      running = false;
      await Promise.all(loops);
      loops = [];
    },
  };
}
