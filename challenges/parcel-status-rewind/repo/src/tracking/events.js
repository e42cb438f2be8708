/**
 * Swiftline tracking events as they arrive from the tracking-events queue.
 *
 * Swiftline numbers each parcel's events 1, 2, 3, … in the order its systems
 * recorded them (`seq`): event 10 of a parcel happened after event 9, whatever
 * the two `occurredAt` say. `occurredAt` is the scanning device's own clock,
 * to the second: depot belts and couriers' handhelds each keep their own time.
 *
 * @typedef {object} TrackingEvent
 * @property {string} eventId Swiftline's id of the event, also the queue message's id
 * @property {string} parcelId
 * @property {number} seq the event's number among its parcel's events
 * @property {string} status one of the codes in statuses.js
 * @property {string} occurredAt ISO 8601, the scanning device's clock
 * @property {string} location where the scan happened
 */

import { isKnownStatus } from './statuses.js';

/**
 * Reads one queue message into a tracking event, or throws a TypeError saying
 * what is wrong with it (such messages are dead-lettered, never retried).
 * @param {Record<string, unknown>} message
 * @returns {TrackingEvent}
 */
export function parseEvent(message) {
  const { messageId, parcelId, seq, status, occurredAt, location } = message ?? {};
  if (typeof messageId !== 'string' || messageId === '') throw new TypeError('the message has no id');
  if (typeof parcelId !== 'string' || !/^PX-\d{4}-\d{4}$/.test(parcelId)) throw new TypeError(`${messageId}: bad parcel id ${JSON.stringify(parcelId)}`);
  if (!Number.isInteger(seq) || seq < 1) throw new TypeError(`${messageId}: seq must be a positive integer, got ${JSON.stringify(seq)}`);
  if (typeof status !== 'string' || !isKnownStatus(status)) throw new TypeError(`${messageId}: unknown status ${JSON.stringify(status)}`);
  if (typeof occurredAt !== 'string' || Number.isNaN(Date.parse(occurredAt))) throw new TypeError(`${messageId}: bad occurredAt ${JSON.stringify(occurredAt)}`);
  return { eventId: messageId, parcelId, seq, status, occurredAt, location: typeof location === 'string' ? location : '' };
}
