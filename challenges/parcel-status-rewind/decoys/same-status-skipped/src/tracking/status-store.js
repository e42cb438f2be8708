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
  /**
   * The status the tracking page shows for a parcel now, or null.
   * @param {string} parcelId
   */
  async function current(parcelId) {
    const raw = await store.get(statusKey(parcelId));
    return raw === null ? null : JSON.parse(raw);
  }

  /**
   * Records an event unless the page shows it or a newer one, or the event
   * would not change what the page says (same status: a rescan), with a
   * compare-and-set against the document read (read again on a conflict).
   * @returns {Promise<'applied' | 'duplicate' | 'stale'>}
   */
  async function apply(event) {
    const key = statusKey(event.parcelId);
    for (;;) {
      const raw = await store.get(key);
      const shown = raw === null ? null : JSON.parse(raw);
      if (shown !== null && (shown.seq === event.seq || shown.status === event.status)) return 'duplicate';
      if (shown !== null && shown.seq > event.seq) return 'stale';
      if (await store.compareAndSet(key, raw, JSON.stringify(toDocument(event, trackerId)))) {
        log.info({ parcel: event.parcelId, seq: event.seq, from: shown?.status ?? 'none', to: event.status, result: 'applied' });
        return 'applied';
      }
    }
  }

  return { current, apply };
}
