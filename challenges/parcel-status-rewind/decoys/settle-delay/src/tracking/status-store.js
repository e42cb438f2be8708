/**
 * Each parcel's current tracking status, in the shared tracking store, where
 * the tracking page reads it. The key `parcel:<parcelId>:status` holds one JSON
 * document, the parcel's latest event:
 *
 *   { "parcelId": "PX-4471-0932", "seq": 10, "status": "delivered",
 *     "occurredAt": "2026-11-20T10:41:05Z", "location": "LS6 2QT", "updatedBy": "tracker-b" }
 */

import { silentLogger } from '../logger.js';

/** How long an event is held back before it is recorded, so that a parcel's events settle in the store. */
const SETTLE_MS = 2_000;

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
 * @param {import('../clock.js').Clock} deps.clock holds events back on it
 * @param {import('../logger.js').Logger} [deps.log]
 */
export function createStatusStore({ store, trackerId, clock, log = silentLogger }) {
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
   * this event or a later one. The event is held back first, so that a newer
   * event of the parcel handled at the same time has landed by the time this
   * one compares.
   * @param {import('./events.js').TrackingEvent} event
   * @returns {Promise<'applied' | 'duplicate' | 'stale'>}
   */
  async function apply(event) {
    await clock.sleep(SETTLE_MS);
    const shown = await current(event.parcelId);
    if (shown !== null && shown.seq >= event.seq) {
      const result = shown.seq === event.seq ? 'duplicate' : 'stale';
      log.info({ parcel: event.parcelId, seq: event.seq, shown: shown.seq, result });
      return result;
    }
    const document = toDocument(event, trackerId);
    await store.set(statusKey(event.parcelId), JSON.stringify(document));
    log.info({ parcel: event.parcelId, seq: event.seq, from: shown?.status ?? 'none', to: event.status, result: 'applied' });
    return 'applied';
  }

  return { current, apply };
}
