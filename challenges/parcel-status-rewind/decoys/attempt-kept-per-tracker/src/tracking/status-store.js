/**
 * Each parcel's current tracking status, in the shared tracking store, where
 * the tracking page reads it. The key `parcel:<parcelId>:status` holds one JSON
 * document, the parcel's latest event:
 *
 *   { "parcelId": "PX-4471-0932", "seq": 10, "status": "delivered",
 *     "occurredAt": "2026-11-20T10:41:05Z", "location": "LS6 2QT", "updatedBy": "tracker-b" }
 */

import { silentLogger } from '../logger.js';

/** The store key of a parcel's status document. */
export const statusKey = (parcelId) => `parcel:${parcelId}:status`;

/**
 * The document the tracking page reads, for an event.
 * @param {import('./events.js').TrackingEvent} event
 * @param {string} trackerId
 */
export function toDocument(event, trackerId) {
  const { parcelId, seq, status, occurredAt, location } = event;
  return { parcelId, seq, status, occurredAt, location, updatedBy: trackerId };
}

/**
 * @param {object} deps
 * @param {import('../store/remote-store.js').KeyValueStore} deps.store the shared tracking store
 * @param {string} deps.trackerId this process's name, recorded with every write
 * @param {import('../logger.js').Logger} [deps.log]
 */
export function createStatusStore({ store, trackerId, log = silentLogger }) {
  /** The write being attempted: the event, its key and the document it writes, kept for the log lines of its retries. */
  const attempt = { event: null, key: null, document: null };

  /**
   * The status the tracking page shows for a parcel now, or null.
   * @param {string} parcelId
   */
  async function current(parcelId) {
    const raw = await store.get(statusKey(parcelId));
    return raw === null ? null : JSON.parse(raw);
  }

  /**
   * Records an event as the parcel's status, unless the page already shows
   * this event or a later one. The write only lands if the document is still
   * the one this call compared against; otherwise it reads again and decides
   * again.
   * @param {import('./events.js').TrackingEvent} event
   * @returns {Promise<'applied' | 'duplicate' | 'stale'>}
   */
  async function apply(event) {
    attempt.event = event;
    attempt.key = statusKey(event.parcelId);
    attempt.document = JSON.stringify(toDocument(event, trackerId));
    for (;;) {
      const raw = await store.get(attempt.key);
      const shown = raw === null ? null : JSON.parse(raw);
      if (shown !== null && shown.seq >= attempt.event.seq) {
        const result = shown.seq === attempt.event.seq ? 'duplicate' : 'stale';
        log.info({ parcel: attempt.event.parcelId, seq: attempt.event.seq, shown: shown.seq, result });
        return result;
      }
      if (await store.compareAndSet(attempt.key, raw, attempt.document)) {
        log.info({ parcel: attempt.event.parcelId, seq: attempt.event.seq, from: shown?.status ?? 'none', to: attempt.event.status, result: 'applied' });
        return 'applied';
      }
      log.info({ parcel: attempt.event.parcelId, seq: attempt.event.seq, result: 'conflict, retrying' });
    }
  }

  return { current, apply };
}
