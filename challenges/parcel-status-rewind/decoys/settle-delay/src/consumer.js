/**
 * Handles the tracking-events queue's messages: each is one Swiftline event,
 * recorded as its parcel's status. Two trackers run (deploy/tracker.yaml), each
 * its own process handling several messages at once.
 *
 * handle(message) resolves once the message is dealt with, and the queue
 * deletes it; when it throws, the message is delivered again after the
 * visibility timeout.
 */

import { silentLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { parseEvent } from './tracking/events.js';
import { createStatusStore } from './tracking/status-store.js';

/**
 * Creates the message handler of one tracker process.
 * @param {object} deps
 * @param {string} deps.trackerId the process's name, e.g. "tracker-a"
 * @param {import('./store/remote-store.js').KeyValueStore} deps.store the shared tracking store
 * @param {import('./clock.js').Clock} deps.clock
 * @param {import('./logger.js').Logger} [deps.log]
 * @param {ReturnType<typeof createMetrics>} [deps.metrics]
 */
export function createTracker({ trackerId, store, clock, log = silentLogger, metrics = createMetrics() }) {
  const logger = log.child({ tracker: trackerId });
  const statuses = createStatusStore({ store, trackerId, clock, log: logger });

  /**
   * Handles one queue message.
   * @param {{ messageId: string, attempt?: number } & Record<string, unknown>} message
   * @returns {Promise<{ messageId: string, parcelId?: string, seq?: number, result: string }>}
   */
  async function handle(message) {
    const started = clock.now();
    let event;
    try {
      event = parseEvent(message);
    } catch (error) {
      metrics.inc('tracking_events_rejected_total');
      logger.warn({ message: message?.messageId, result: 'rejected', error: error.message });
      return { messageId: message?.messageId, result: 'rejected' };
    }
    const result = await statuses.apply(event);
    metrics.inc(`tracking_events_${result}_total`);
    logger.debug({ message: event.eventId, attempt: message.attempt, ms: clock.now() - started });
    return { messageId: event.eventId, parcelId: event.parcelId, seq: event.seq, result };
  }

  return { trackerId, handle };
}
