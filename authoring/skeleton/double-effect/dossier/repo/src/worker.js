/**
 * Handles one delivery of a payment job: charges an order. The outcome tells
 * the queue what to do with the delivery:
 *   'charged'       this worker charged the order            → ack
 *   'already-paid'  the order was paid before; nothing done  → ack
 * If the gateway never answers in time, handle() rejects and the queue
 * delivers the job again later.
 */

import { createPayments } from './payments.js';

/**
 * Creates the worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "blue"
 * @param {import('./memory-store.js').KeyValueStore} deps.store the store shared by every worker
 * @param {{ charge(request: object): Promise<{ chargeId: string }> }} deps.gateway the payment gateway
 * @param {{ sleep(ms: number): Promise<void> }} deps.clock
 * @returns {{ workerId: string, handle(message: { orderId: string, amountCents: number }): Promise<string> }}
 */
export function createWorker({ workerId, store, gateway, clock }) {
  const payments = createPayments({ store, gateway, clock });
  return { workerId, handle: (message) => payments.pay(message) };
}
