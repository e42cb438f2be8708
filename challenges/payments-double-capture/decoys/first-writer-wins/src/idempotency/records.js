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
 * The first answer stored for a key is the answer for good: save() writes
 * with setIfAbsent, so when two requests with one key both finish, the
 * second cannot overwrite the first (on 8 May api-2's record replaced
 * api-0's, and later retries replayed a different capture from the one the
 * first attempt made). The loser gets the winner's record back and answers
 * with it.
 *
 * History: until PAY-1090 (2026-03-02) records were rows in Postgres. They
 * moved to the shared Redis so that every instance sees them.
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
 * @param {object} options
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store the shared store
 * @param {string} options.instanceId written into each record, for debugging
 * @param {number} options.ttlMs how long a record is kept
 * @param {import('../clock.js').Clock} options.clock
 */
export function createIdempotencyRecords({ store, instanceId, ttlMs, clock }) {
  if (!(Number.isInteger(ttlMs) && ttlMs > 0)) throw new RangeError(`idempotency ttlMs must be a positive integer, got ${ttlMs}`);

  return {
    async find(idempotencyKey) {
      const raw = await store.get(recordKeyFor(idempotencyKey));
      return raw === null ? null : parse(raw, idempotencyKey);
    },

    /**
     * Stores the answer unless another request stored one first. Resolves to
     * the record that is now the answer for the key: ours, or the winner's.
     */
    async saveFirst(idempotencyKey, { fingerprint, response }) {
      const record = { fingerprint, response, savedBy: instanceId, savedAt: clock.now() };
      const key = recordKeyFor(idempotencyKey);
      if (await store.setIfAbsent(key, JSON.stringify(record), { ttlMs })) return record;
      const raw = await store.get(key);
      return raw === null ? record : parse(raw, idempotencyKey);
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
