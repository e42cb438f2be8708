/**
 * Handles one delivery of a points award: a customer's order earned points,
 * and the worker adds them to the customer's loyalty balance.
 *
 * The outcome tells the queue what to do with the delivery:
 *   'awarded'  the points are on the balance → ack
 */

import { createBalances } from './points.js';

/**
 * Creates the worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "blue"
 * @param {import('./memory-store.js').KeyValueStore} deps.store the store shared by every worker
 * @returns {{ workerId: string, handle(message: { orderId: string, accountId: string, points: number }): Promise<'awarded'> }}
 */
export function createWorker({ workerId, store }) {
  const balances = createBalances({ store });

  async function handle(message) {
    await balances.add(message.accountId, message.points);
    return 'awarded';
  }

  return { workerId, handle };
}
