/**
 * The tracking statuses Swiftline sends, and what the tracking page says for
 * each. A parcel can go through some of them more than once: a parcel nobody
 * was home for goes back to the depot and out for delivery again the next day.
 */

/** Every status code a Swiftline event may carry, with the page's wording. */
export const STATUS_LABELS = Object.freeze({
  label_created: 'Label created, waiting for the courier',
  collected: 'Collected from the warehouse',
  in_transit: 'On its way to your local depot',
  at_depot: 'At your local depot',
  out_for_delivery: 'Out for delivery today',
  delivery_attempted: 'We tried to deliver your parcel',
  delivered: 'Delivered',
  returned_to_sender: 'On its way back to us',
});

/**
 * Whether a status code is one Swiftline sends.
 * @param {string} status
 */
export function isKnownStatus(status) {
  return Object.hasOwn(STATUS_LABELS, status);
}
