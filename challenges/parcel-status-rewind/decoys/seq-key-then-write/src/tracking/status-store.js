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
   * Records an event as the parcel's status, unless a later event of the
   * parcel was recorded already: the parcel's highest seq is kept beside its
   * document and raised only from the value this call read.
   * @param {import('./events.js').TrackingEvent} event
   * @returns {Promise<'applied' | 'duplicate' | 'stale'>}
   */
  async function apply(event) {
    const seqKey = `parcel:${event.parcelId}:seq`;
    for (;;) {
      const raw = await store.get(seqKey);
      const highest = raw === null ? 0 : Number(raw);
      if (highest >= event.seq) {
        const result = highest === event.seq ? 'duplicate' : 'stale';
        log.info({ parcel: event.parcelId, seq: event.seq, highest, result });
        return result;
      }
      if (await store.compareAndSet(seqKey, raw, String(event.seq))) break;
    }
    const document = toDocument(event, trackerId);
    await store.set(statusKey(event.parcelId), JSON.stringify(document));
    log.info({ parcel: event.parcelId, seq: event.seq, to: event.status, result: 'applied' });
    return 'applied';
  }

  return { current, apply };
}
