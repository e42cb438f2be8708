/**
 * Text of the "your order has shipped" notification.
 *
 * Copy is owned by the CX team (ticket queue CX-COPY); keep changes to wording
 * in their review. Carrier display names are the ones on our shipping labels.
 */

const CARRIER_NAMES = Object.freeze({
  dhl: 'DHL',
  dpd: 'DPD',
  gls: 'GLS',
  postnl: 'PostNL',
  ups: 'UPS',
});

const TRACKING_PAGE = 'https://track.shipfast.example';

/**
 * @typedef {object} RenderedNotification
 * @property {string} subject
 * @property {string} body plain text
 */

/**
 * Renders the shipment notification for one order.
 *
 * @param {import('../queue/message.js').ShipmentPayload} payload
 * @returns {RenderedNotification}
 */
export function renderShipmentNotification({ orderId, carrier, trackingNumber }) {
  const carrierName = CARRIER_NAMES[carrier.toLowerCase()] ?? carrier;
  const trackingUrl = `${TRACKING_PAGE}/${encodeURIComponent(carrier.toLowerCase())}/${encodeURIComponent(trackingNumber)}`;
  return {
    subject: `Your order ${orderId} is on its way`,
    body: [
      'Good news: your order has shipped.',
      '',
      `Order:           ${orderId}`,
      `Carrier:         ${carrierName}`,
      `Tracking number: ${trackingNumber}`,
      '',
      `Follow your parcel at ${trackingUrl}`,
      '',
      'You are receiving this e-mail because you placed an order with us.',
    ].join('\n'),
  };
}
