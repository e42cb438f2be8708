/**
 * Idempotency records: the answer the API gave to a request with a given
 * Idempotency-Key, kept in the shared store so that a retry of that request,
 * on whichever instance it lands, gets the same answer instead of a second
 * capture.
 *
 * A record lives under `idem:<Idempotency-Key>` and holds JSON. It is written
 * twice in the life of a key:
 *
 *   1. reserve(): before Kestrel is called, a *pending* record
 *        { "state": "pending", "fingerprint": ..., "token": "api-0:...:1", ... }
 *      written with setIfAbsent, so of all the requests carrying the key, on
 *      every instance, exactly one gets to call Kestrel. It lives
 *      PENDING_TTL_MS, longer than a capture can take (Kestrel timeout, 10 s)
 *      plus the whole retry window of the checkout (30 s).
 *   2. complete(): once Kestrel captured, the *completed* record
 *        { "state": "completed", "fingerprint": ..., "response": { "captureId": ... } }
 *      replaces it for idempotencyTtlMs (24 h).
 *
 * If Kestrel did not capture, release() deletes the pending record (only if
 * it is still ours), so that a retry can try again.
 *
 * The fingerprint ties a key to one request: the same key sent with another
 * payment or amount is the caller's bug, answered 422 (see capture-service).
 *
 * History: until PAY-1090 (2026-03-02) records were rows in Postgres. They
 * moved to the shared Redis so that every instance sees them. Records written
 * before reservations existed have no `state`; they are completed records.
 */

/**
 * How long a pending reservation lives if nobody completes or releases it
 * (the instance died mid-capture): far longer than a capture can be in flight
 * (Kestrel timeout 10 s) and than the checkout keeps retrying (30 s), so a
 * retry never finds the key free while a capture for it may still succeed.
 */
export const PENDING_TTL_MS = 5 * 60 * 1000;

/** Reservations made by this process; makes every token unique. */
let reservations = 0;

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
 * @property {'pending' | 'completed'} state
 * @property {string} fingerprint see fingerprintOf()
 * @property {object} [response] the capture as the API returned it (completed records)
 *
 * @typedef {object} Reservation proof that this request owns a key, for complete() and release()
 * @property {string} idempotencyKey
 * @property {string} fingerprint
 * @property {string} value the pending record exactly as written
 *
 * @typedef {{ reserved: true, reservation: Reservation }
 *   | { reserved: false, record: IdempotencyRecord | null }} ReserveResult
 *   `record` is null when the key was freed again between the two store calls.
 *
 * @typedef {object} IdempotencyRecords
 * @property {(idempotencyKey: string, fingerprint: string) => Promise<ReserveResult>} reserve
 * @property {(reservation: Reservation, response: object) => Promise<void>} complete
 * @property {(reservation: Reservation) => Promise<boolean>} release
 */

/**
 * @param {object} options
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store the shared store
 * @param {string} options.instanceId written into each record, for debugging
 * @param {number} options.ttlMs how long a completed record is kept
 * @param {import('../clock.js').Clock} options.clock
 * @returns {IdempotencyRecords}
 */
export function createIdempotencyRecords({ store, instanceId, ttlMs, clock }) {
  if (!(Number.isInteger(ttlMs) && ttlMs > 0)) throw new RangeError(`idempotency ttlMs must be a positive integer, got ${ttlMs}`);

  return {
    async reserve(idempotencyKey, fingerprint) {
      reservations += 1;
      const now = clock.now();
      const value = JSON.stringify({
        state: 'pending',
        fingerprint,
        token: `${instanceId}:${now}:${reservations}`,
        reservedBy: instanceId,
        reservedAt: now,
      });
      // Check and write in one step inside Redis: only one request wins.
      if (await store.setIfAbsent(recordKeyFor(idempotencyKey), value, { ttlMs: PENDING_TTL_MS })) {
        return { reserved: true, reservation: { idempotencyKey, fingerprint, value } };
      }
      const raw = await store.get(recordKeyFor(idempotencyKey));
      return { reserved: false, record: raw === null ? null : parse(raw, idempotencyKey) };
    },

    async complete({ idempotencyKey, fingerprint }, response) {
      const record = { state: 'completed', fingerprint, response, savedBy: instanceId, savedAt: clock.now() };
      await store.set(recordKeyFor(idempotencyKey), JSON.stringify(record), { ttlMs });
    },

    async release({ idempotencyKey, value }) {
      return store.compareAndDelete(recordKeyFor(idempotencyKey), value);
    },
  };
}

function parse(raw, idempotencyKey) {
  let record;
  try {
    record = JSON.parse(raw);
  } catch {
    throw new Error(`idempotency record for ${idempotencyKey} is not JSON: ${raw.slice(0, 40)}`);
  }
  return { ...record, state: record.state ?? 'completed' };
}
