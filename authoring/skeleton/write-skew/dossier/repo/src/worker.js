/**
 * Handles one delivery of a step-down request: an owner of a project asks to
 * become a plain member. The outcome tells the queue what to do with it:
 *   'left'        the user is a member now                              → ack
 *   'last-owner'  refused: the user is the project's last owner (or no   → ack
 *                 owner at all)
 */

import { createMemberships } from './memberships.js';

/**
 * Creates the worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, e.g. "blue"
 * @param {import('./memory-database.js').Database} deps.db the database shared by every worker
 * @returns {{ workerId: string, handle(message: { project: string, user: string }): Promise<string> }}
 */
export function createWorker({ workerId, db }) {
  const memberships = createMemberships({ db });
  return { workerId, handle: (message) => memberships.stepDown(message) };
}
