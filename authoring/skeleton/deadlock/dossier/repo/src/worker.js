/**
 * Handles one delivery of a transfer: moves money between two wallet
 * accounts and answers `posted` (the queue acks the delivery).
 */

import { createTransfers } from './transfers.js';

/**
 * Creates the worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "blue"
 * @param {{ get(key: string): Promise<string | null>, set(key: string, value: string): Promise<void> }} deps.store the balances, shared by every worker
 * @param {import('./memory-locks.js').LockClient} deps.locks this worker's handle on the lock service
 * @param {{ append(entry: object): Promise<object> }} deps.journal the audit journal
 * @returns {{ workerId: string, handle(message: { transferId: string, from: string, to: string, amountCents: number }): Promise<'posted'> }}
 */
export function createWorker({ workerId, store, locks, journal }) {
  const transfers = createTransfers({ store, locks, journal });

  async function handle(message) {
    await transfers.post(message);
    return 'posted';
  }

  return { workerId, handle };
}
