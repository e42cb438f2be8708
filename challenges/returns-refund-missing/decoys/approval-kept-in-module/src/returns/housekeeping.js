/**
 * Housekeeping: the scheduler sends every worker a housekeeping.tick command
 * every 10 s (housekeepingEveryMs in src/config.js). A run does the periodic
 * work of the worker that is due when it starts, and answers "done".
 *
 * It publishes every event waiting in the outbox table, oldest id first, and
 * marks each one published once the bus has confirmed it. A run that dies or
 * fails between a publish and its mark leaves the event pending, and a later
 * run publishes it again under the same id, which subscribers ignore; two
 * workers' runs may publish the same event at once, for the same reason
 * harmlessly. Then it writes the worker's counters to the metrics pipeline.
 */

/** The table where an approval's event waits until the bus has it. */
export const OUTBOX_TABLE = 'outbox';

/**
 * @param {{ db: import('../db/returns-db.js').ReturnsDb, bus: import('../bus/event-bus.js').EventBus,
 *   clock: import('../clock.js').Clock, log: import('../logger.js').Logger, metrics: import('../metrics.js').Metrics }} deps
 * @returns {Promise<'done'>}
 */
export async function runHousekeeping({ db, bus, clock, log, metrics }) {
  const pending = await db.query(OUTBOX_TABLE, { state: 'pending' });
  for (const entry of pending) {
    await bus.publish(entry.topic, entry.event);
    await db.update(OUTBOX_TABLE, entry.id, { state: 'published', publishedAt: new Date(clock.now()).toISOString() });
    metrics.increment('returns_events_published_total');
    log.info({ msg: 'event published', event: entry.id });
  }
  const counters = metrics.flush();
  log.debug({ msg: 'housekeeping', ...counters });
  return 'done';
}
