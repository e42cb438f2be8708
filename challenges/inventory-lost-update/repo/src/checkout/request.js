/**
 * The body of POST /checkouts, as the storefront sends it when a customer
 * presses "Pay now":
 *
 *   {
 *     "orderId": "FH-2603-48861",
 *     "customerId": "cus_7Hq2Lw",
 *     "sku": "FH-LOT7-GESHA-250",
 *     "quantity": 1,
 *     "amountMinor": 2400,
 *     "currency": "EUR",
 *     "paymentMethod": "pm_1QxR8f"
 *   }
 *
 * The order id is created by the storefront when the checkout page opens, so
 * it identifies one order across every system (orders DB, PSP, warehouse).
 *
 * @typedef {object} CheckoutRequest
 * @property {string} orderId
 * @property {string} customerId
 * @property {string} sku
 * @property {number} quantity
 * @property {number} amountMinor order total in cents
 * @property {string} currency
 * @property {string} paymentMethod
 */

/** The request is malformed; answered 400 and never retried. */
export class InvalidCheckoutError extends Error {
  constructor(message) {
    super(message);
    this.name = 'InvalidCheckoutError';
  }
}

/**
 * Checks a request body and returns it as a CheckoutRequest.
 *
 * @param {unknown} body
 * @param {{ maxQuantityPerOrder: number }} rules
 * @returns {CheckoutRequest}
 * @throws {InvalidCheckoutError}
 */
export function validateCheckoutRequest(body, { maxQuantityPerOrder }) {
  if (body === null || typeof body !== 'object') throw new InvalidCheckoutError('body must be a JSON object');
  const { orderId, customerId, sku, quantity, amountMinor, currency, paymentMethod } = /** @type {any} */ (body);
  for (const [name, value] of Object.entries({ orderId, customerId, sku, currency, paymentMethod })) {
    if (typeof value !== 'string' || value === '') throw new InvalidCheckoutError(`${name} must be a non-empty string`);
  }
  if (!Number.isInteger(quantity) || quantity < 1) throw new InvalidCheckoutError('quantity must be a positive integer');
  if (quantity > maxQuantityPerOrder) {
    throw new InvalidCheckoutError(`at most ${maxQuantityPerOrder} of ${sku} per order`);
  }
  if (!Number.isInteger(amountMinor) || amountMinor <= 0) throw new InvalidCheckoutError('amountMinor must be a positive integer');
  return { orderId, customerId, sku, quantity, amountMinor, currency, paymentMethod };
}
