/**
 * The envelope of a shipment-notification message.
 *
 * Producers (the fulfilment service) publish one message per shipment job:
 *
 *   {
 *     id: 'msg-7f3c9e21',          // assigned by the queue, the same on every delivery
 *     jobId: 'job-7',              // assigned by the producer; one job = one notification
 *     attempt: 1,                  // 1 on the first delivery, 2 on the next, …
 *     payload: { orderId, recipient, carrier, trackingNumber },
 *   }
 *
 * The queue may attach transport fields (such as receiptHandle); they are ignored here.
 */

const PAYLOAD_FIELDS = Object.freeze(['orderId', 'recipient', 'carrier', 'trackingNumber']);

/**
 * Thrown for a message that can never be handled, however often it is delivered.
 * The pool acks such messages (after logging them) instead of retrying forever.
 */
export class InvalidMessageError extends Error {
  /** @param {string} reason */
  constructor(reason) {
    super(`invalid shipment message: ${reason}`);
    this.name = 'InvalidMessageError';
  }
}

/**
 * @typedef {object} ShipmentPayload
 * @property {string} orderId
 * @property {string} recipient e-mail address of the customer
 * @property {string} carrier carrier code, e.g. "dhl"
 * @property {string} trackingNumber
 *
 * @typedef {object} ShipmentMessage
 * @property {string} id queue message id
 * @property {string} jobId producer's job id
 * @property {number} attempt delivery attempt, starting at 1
 * @property {ShipmentPayload} payload
 */

/**
 * Checks that `message` is a well-formed shipment message and returns it.
 *
 * @param {unknown} message
 * @returns {ShipmentMessage}
 * @throws {InvalidMessageError}
 */
export function validateMessage(message) {
  if (message === null || typeof message !== 'object') throw new InvalidMessageError('not an object');
  const { id, jobId, attempt, payload } = /** @type {Record<string, any>} */ (message);
  if (!nonEmptyString(id)) throw new InvalidMessageError('id is missing');
  if (!nonEmptyString(jobId)) throw new InvalidMessageError(`jobId is missing (message ${id})`);
  if (attempt !== undefined && !(Number.isInteger(attempt) && attempt >= 1)) {
    throw new InvalidMessageError(`attempt must be a positive integer (message ${id})`);
  }
  if (payload === null || typeof payload !== 'object') throw new InvalidMessageError(`payload is missing (message ${id})`);
  for (const field of PAYLOAD_FIELDS) {
    if (!nonEmptyString(payload[field])) throw new InvalidMessageError(`payload.${field} is missing (message ${id})`);
  }
  return /** @type {ShipmentMessage} */ (message);
}

function nonEmptyString(value) {
  return typeof value === 'string' && value.trim() !== '';
}
