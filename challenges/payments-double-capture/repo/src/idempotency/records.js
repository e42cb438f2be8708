/**
 * Idempotency records: the answer the API gave to a request with a given
 * Idempotency-Key, kept in the shared store so that a retry of that request,
 * on whichever instance it lands, gets the same answer instead of a second
 * capture.
 *
 * A record lives under `idem:<Idempotency-Key>` for idempotencyTtlMs (24 h)
 * and holds JSON:
 *
 *   { "fingerprint": "pay_5mQ2rT8vXc|14800|GBP",
 *     "response": { "captureId": "cap_8FvA21kq", "paymentId": ..., ... },
 *     "savedBy": "api-0", "savedAt": 1778267647908 }
 *
 * The fingerprint ties a key to one request: the same key sent with another
 * payment or amount is the caller's bug, answered 422 (see capture-service).
 *
 * History: until PAY-1090 (2026-03-02) records were rows in Postgres. They
 * moved to the shared Redis so that every instance sees them; the record
 * format did not change.
 */

/**
 * The store key of an Idempotency-Key.
 * @param {string} idempotencyKey as sent by the caller
 * @returns {string}
 */
export function recordKeyFor(idempotencyKey) {
  return `idem:${idempotencyKey}`;
}

/**
 * What a key is bound to: the payment, the amount and the currency.
 * @param {{ paymentId: string, amount: number, currency: string }} request
 * @returns {string}
 */
export function fingerprintOf({ paymentId, amount, currency }) {
  return `${paymentId}|${amount}|${currency}`;
}

/**
 * @typedef {object} IdempotencyRecord
 * @property {string} fingerprint see fingerprintOf()
 * @property {object} response the capture as the API returned it
 * @property {string} savedBy instance that wrote the record
 * @property {number} savedAt when, ms since the epoch
 */

/**
 * @typedef {object} IdempotencyRecords
 * @property {(idempotencyKey: string) => Promise<IdempotencyRecord | null>} find
 *   The stored record of a key, or null if there is none (never answered, or expired).
 * @property {(idempotencyKey: string, record: { fingerprint: string, response: object }) => Promise<void>} save
 *   Stores the answer to a key for ttlMs.
 */

/**
 * @param {object} options
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store the shared store
 * @param {string} options.instanceId written into each record, for debugging
 * @param {number} options.ttlMs how long a record is kept
 * @param {import('../clock.js').Clock} options.clock
 * @returns {IdempotencyRecords}
 */
export function createIdempotencyRecords({ store, instanceId, ttlMs, clock }) {
  if (!(Number.isInteger(ttlMs) && ttlMs > 0)) throw new RangeError(`idempotency ttlMs must be a positive integer, got ${ttlMs}`);

  return {
    async find(idempotencyKey) {
      const raw = await store.get(recordKeyFor(idempotencyKey));
      return raw === null ? null : parse(raw, idempotencyKey);
    },

    async save(idempotencyKey, { fingerprint, response }) {
      const record = { fingerprint, response, savedBy: instanceId, savedAt: clock.now() };
      await store.set(recordKeyFor(idempotencyKey), JSON.stringify(record), { ttlMs });
    },
  };
}

function parse(raw, idempotencyKey) {
  try {
    return JSON.parse(raw);
  } catch {
    throw new Error(`idempotency record for ${idempotencyKey} is not JSON: ${raw.slice(0, 40)}`);
  }
}
