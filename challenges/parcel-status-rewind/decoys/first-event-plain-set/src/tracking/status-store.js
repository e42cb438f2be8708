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
   * Records an event as the parcel's status, unless the page already shows
   * this event or a later one. A parcel with no document yet gets the event
   * written outright: the page shows nothing, so there is nothing to go back
   * from. Otherwise the write only lands if the document is still the one
   * this call compared against; otherwise it reads again and decides again.
   * @param {import('./events.js').TrackingEvent} event
   * @returns {Promise<'applied' | 'duplicate' | 'stale'>}
   */
  async function apply(event) {
    const key = statusKey(event.parcelId);
    const document = JSON.stringify(toDocument(event, trackerId));
    for (;;) {
      const raw = await store.get(key);
      if (raw === null) {
        // Nothing recorded yet for this parcel: nothing to go back from.
        await store.set(key, document);
        log.info({ parcel: event.parcelId, seq: event.seq, from: 'none', to: event.status, result: 'applied' });
        return 'applied';
      }
      const shown = JSON.parse(raw);
      if (shown !== null && shown.seq >= event.seq) {
        const result = shown.seq === event.seq ? 'duplicate' : 'stale';
        log.info({ parcel: event.parcelId, seq: event.seq, shown: shown.seq, result });
        return result;
      }
      if (await store.compareAndSet(key, raw, document)) {
        log.info({ parcel: event.parcelId, seq: event.seq, from: shown?.status ?? 'none', to: event.status, result: 'applied' });
        return 'applied';
      }
    }
  }

  return { current, apply };
}
