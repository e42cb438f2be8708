/**
 * One returns worker: takes the commands the queue hands it and answers each.
 *
 *   return.approve     { returnId, agent }   src/returns/approve.js
 *   return.cancel      { returnId }          src/returns/cancel.js
 *   housekeeping.tick  {}                    src/returns/housekeeping.js
 *
 * The queue acknowledges a command when handle() resolves with an answer and
 * delivers it again, to any worker, when handle() throws or the worker dies
 * before answering (see the fault model in README.md).
 */

import { silentLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { approveReturn } from './returns/approve.js';
import { cancelReturn } from './returns/cancel.js';
import { runHousekeeping } from './returns/housekeeping.js';

/**
 * @param {{ workerId: string, db: import('./db/returns-db.js').ReturnsDb, bus: import('./bus/event-bus.js').EventBus,
 *   clock: import('./clock.js').Clock, logger?: import('./logger.js').Logger }} deps
 * @returns {{ handle(command: { id: string, type: string, returnId?: string, agent?: string }): Promise<string> }}
 */
export function createReturnsWorker({ workerId, db, bus, clock, logger = silentLogger }) {
  const metrics = createMetrics();
  const base = logger.with({ worker: workerId });
  return {
    async handle(command) {
      const log = base.with({ command: command.id, type: command.type, return: command.returnId });
      const deps = { db, bus, clock, log, metrics };
      switch (command.type) {
        case 'return.approve': return approveReturn(deps, command);
        case 'return.cancel': return cancelReturn(deps, command);
        case 'housekeeping.tick': return runHousekeeping(deps);
        default:
          log.warn({ msg: 'unknown command' });
          return 'unknown-command';
      }
    },
  };
}
