/**
 * Housekeeping: the scheduler sends every worker a housekeeping.tick command
 * every 10 s (housekeepingEveryMs in src/config.js). A run does the periodic
 * work of the worker that is due when it starts, and answers "done".
 *
 * It publishes the events whose publish failed during an approval, then
 * writes the worker's counters to the metrics pipeline.
 */

import { RETURNS_TOPIC, unpublished } from './events.js';

/**
 * @param {{ bus: import('../bus/event-bus.js').EventBus, log: import('../logger.js').Logger, metrics: import('../metrics.js').Metrics }} deps
 * @returns {Promise<'done'>}
 */
export async function runHousekeeping({ bus, log, metrics }) {
  for (const [id, event] of unpublished) {
    await bus.publish(RETURNS_TOPIC, event);
    unpublished.delete(id);
    log.info({ msg: 'event published', event: id });
  }
  const counters = metrics.flush();
  log.debug({ msg: 'housekeeping', ...counters });
  return 'done';
}
