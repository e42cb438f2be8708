/**
 * Handles one delivery of a report job: builds the report of one day. The
 * outcome tells the queue what to do with the delivery:
 *   'written'     this worker wrote the report                           → ack
 *   'superseded'  another worker wrote a newer report; nothing written   → ack
 *   'busy'        another worker holds the report's lease                → no ack:
 *                 the queue delivers it again two seconds later
 */

import { createReportJob } from './report-job.js';

/**
 * Creates the worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "blue"
 * @param {import('./memory-leases.js').LeaseService} deps.leases the lease service
 * @param {import('./memory-storage.js').ReportStorage} deps.storage the report storage
 * @returns {{ workerId: string, handle(message: { day: string }): Promise<string> }}
 */
export function createWorker({ workerId, leases, storage }) {
  const job = createReportJob({ owner: workerId, leases, storage });
  return { workerId, handle: (message) => job.run(message.day) };
}
