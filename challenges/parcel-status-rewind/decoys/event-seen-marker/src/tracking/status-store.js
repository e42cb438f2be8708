/**
 * Each parcel's current tracking status, in the shared tracking store, where
 * the tracking page reads it. The key `parcel:<parcelId>:status` holds one JSON
 * document, the parcel's latest event:
 *
 *   { "parcelId": "PX-4471-0932", "seq": 10, "status": "delivered",
 *     "occurredAt": "2026-11-20T10:41:05Z", "location": "LS6 2QT", "updatedBy": "tracker-b" }
 *
 * The key `event:<eventId>:seen` marks an event a tracker has taken on (for
 * 24 h), so that its other deliveries know it is being dealt with.
 */

import { silentLogger } from '../logger.js';

/** The store key of a parcel's status document. */
export const statusKey = (parcelId) => `parcel:${parcelId}:status`;

/** The store key that marks an event as taken on by a tracker. */
export const seenKey = (eventId) => `event:${eventId}:seen`;

/** How long an event stays marked: far longer than the queue redelivers it. */
const SEEN_TTL_MS = 24 * 60 * 60 * 1000;

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
   * this event or a later one. The queue is at-least-once, so the event is
   * first marked seen with setIfAbsent: a redelivery, or the same event
   * handled at the same moment by the other tracker, finds the mark and is
   * acknowledged as a duplicate without touching the page. The write only
   * lands if the document is still the one this call compared against;
   * otherwise it reads again and decides again. If the store fails, the mark
   * is taken back so that the redelivery tries again.
   * @param {import('./events.js').TrackingEvent} event
   * @returns {Promise<'applied' | 'duplicate' | 'stale'>}
   */
  async function apply(event) {
    const key = statusKey(event.parcelId);
    const marker = seenKey(event.eventId);
    // Claim the event: whoever finds it claimed already is a duplicate.
    if (!(await store.setIfAbsent(marker, trackerId, { ttlMs: SEEN_TTL_MS }))) {
      log.info({ parcel: event.parcelId, seq: event.seq, result: 'duplicate', seen: true });
      return 'duplicate';
    }
    try {
      const document = JSON.stringify(toDocument(event, trackerId));
      for (;;) {
        const raw = await store.get(key);
        const shown = raw === null ? null : JSON.parse(raw);
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
    } catch (error) {
      // Let the redelivery try again: take back our own mark, and only ours.
      await store.compareAndDelete(marker, trackerId).catch(() => {});
      throw error;
    }
  }

  return { current, apply };
}
