/**
 * Handles one delivery of a receipt job.
 *
 * For each delivery the worker:
 *   1. claims the job, so that no other worker handles it at the same time;
 *   2. checks the job's sent-record, so that a job already done is not redone;
 *   3. e-mails the receipt through the mailer;
 *   4. writes the sent-record;
 *   5. releases the claim.
 *
 * The outcome tells the queue what to do with the delivery:
 *   'sent'       this worker sent the receipt                  → ack
 *   'duplicate'  the receipt had gone out before; nothing sent  → ack
 *   'busy'       another worker is handling the job right now  → no ack: the
 *                queue delivers it again after the visibility timeout
 */

import { createClaims } from './claims.js';

/**
 * The store key of a job's sent-record.
 * @param {string} jobId
 * @returns {string}
 */
export function sentKey(jobId) {
  return `sent:${jobId}`;
}

/**
 * Creates the worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "blue"
 * @param {import('./memory-store.js').KeyValueStore} deps.store the store shared by every worker
 * @param {{ send(receipt: object): Promise<object> }} deps.mailer sends e-mail to customers
 * @param {{ now(): number, sleep(ms: number): Promise<void> }} deps.clock
 * @param {number} [deps.claimTtlMs] how long a claim lives if it is never released
 * @returns {{ workerId: string, handle(message: object): Promise<'sent' | 'duplicate' | 'busy'> }}
 */
export function createWorker({ workerId, store, mailer, clock, claimTtlMs = 30_000 }) {
  const claims = createClaims({ store, owner: workerId, ttlMs: claimTtlMs, clock });

  async function handle(message) {
    const { jobId } = message;
    const token = await claims.acquire(jobId);
    if (token === null) {
      return 'busy';
    }
    try {
      if ((await store.get(sentKey(jobId))) !== null) {
        return 'duplicate';
      }
      await mailer.send({ to: message.recipient, orderId: message.orderId, dedupeKey: jobId });
      await store.set(sentKey(jobId), workerId);
      return 'sent';
    } finally {
      await claims.release(jobId, token);
    }
  }

  return { workerId, handle };
}
