/**
 * Housekeeping: the scheduler sends every worker a housekeeping.tick command
 * every 10 s (housekeepingEveryMs in src/config.js). A run does the periodic
 * work of the worker that is due when it starts, and answers "done".
 *
 * Today that is writing the worker's counters to the metrics pipeline.
 */

/**
 * @param {{ log: import('../logger.js').Logger, metrics: import('../metrics.js').Metrics }} deps
 * @returns {Promise<'done'>}
 */
export async function runHousekeeping({ log, metrics }) {
  const counters = metrics.flush();
  log.debug({ msg: 'housekeeping', ...counters });
  return 'done';
}
