/**
 * Handles one delivery of an export job: uploads a batch of records to the
 * partner. The outcome tells the queue what to do with the delivery:
 *   'exported'    this worker uploaded the rest of the batch         → ack
 *   'done'        the batch was uploaded before; nothing to do       → ack
 *   'lost-lease'  another worker took the batch over                 → ack
 *   'busy'        another worker holds the batch's lease right now   → no ack:
 *                 the queue delivers it again a second later
 */

import { createExporter } from './exporter.js';

/** How long a batch's lease lasts unless renewed, in ms. */
export const LEASE_MS = 1_000;

/**
 * Creates the worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "blue"
 * @param {import('./memory-store.js').KeyValueStore} deps.store the store shared by every worker
 * @param {{ upload(record: object): Promise<object> }} deps.partner the partner's import API
 * @param {{ now(): number, sleep(ms: number): Promise<void> }} deps.clock
 * @returns {{ workerId: string, handle(message: { batchId: string, records: object[] }): Promise<string> }}
 */
export function createWorker({ workerId, store, partner, clock }) {
  const exporter = createExporter({ owner: workerId, store, partner, clock, leaseMs: LEASE_MS });
  return { workerId, handle: (message) => exporter.export(message) };
}
