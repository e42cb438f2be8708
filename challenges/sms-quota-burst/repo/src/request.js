/**
 * The body of POST /v1/sms, after the edge proxy authenticated the API key
 * and added the partner it belongs to:
 *
 *   { requestId: "r-7f3a1c", partnerId: "lindqvist-dental", to: "+46701234567", text: "..." }
 *
 * requestId is the edge's id for the HTTP request, unique per request; the
 * carrier gets it as client_ref.
 */

/** Longest text accepted: 3 concatenated GSM-7 segments. */
export const MAX_TEXT = 459;

/**
 * @typedef {object} SmsRequest
 * @property {string} requestId
 * @property {string} partnerId
 * @property {string} to E.164 number
 * @property {string} text
 */

/**
 * Checks a request body; throws a TypeError naming the first bad field.
 * @param {unknown} body
 * @returns {SmsRequest}
 */
export function validateSmsRequest(body) {
  if (typeof body !== 'object' || body === null) throw new TypeError('body must be a JSON object');
  const { requestId, partnerId, to, text } = /** @type {Record<string, unknown>} */ (body);
  if (typeof requestId !== 'string' || requestId === '') throw new TypeError('requestId must be a non-empty string');
  if (typeof partnerId !== 'string' || !/^[a-z0-9-]+$/.test(partnerId)) throw new TypeError('partnerId must be lower-case letters, digits and dashes');
  if (typeof to !== 'string' || !/^\+[1-9]\d{6,14}$/.test(to)) throw new TypeError('to must be an E.164 number such as +46701234567');
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_TEXT) throw new TypeError(`text must be 1 to ${MAX_TEXT} characters`);
  return { requestId, partnerId, to, text };
}
