/**
 * Idempotency records: the answer the API gave to a request with a given
 * Idempotency-Key, kept in the shared store so that a retry of that request,
 * on whichever instance it lands, gets the same answer instead of a second
 * capture.
 *
 * Two kinds of key:
 *
 *   idem:<Idempotency-Key>                the answer, once Kestrel captured (24 h)
 *   idem:<Idempotency-Key>:<attemptId>    a reservation, written before Kestrel is
 *                                         called and deleted when the attempt ends
 *
 * Every attempt reserves under an id of its own (a fresh UUID), so that a
 * reservation left behind by an attempt that died can never block the
 * checkout's retry: the retry simply makes its own.
 *
 * History: until PAY-1090 (2026-03-02) records were rows in Postgres. They
 * moved to the shared Redis so that every instance sees them.
 */

import { randomUUID } from 'node:crypto';

/** A reservation only has to last as long as one attempt at Kestrel (10 s timeout). */
const RESERVATION_TTL_MS = 60 * 1000;

/**
 * The store key of an Idempotency-Key's answer.
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
 * @param {number} options.ttlMs how long an answer is kept
 * @param {import('../clock.js').Clock} options.clock
 */
export function createIdempotencyRecords({ store, instanceId, ttlMs, clock }) {
  if (!(Number.isInteger(ttlMs) && ttlMs > 0)) throw new RangeError(`idempotency ttlMs must be a positive integer, got ${ttlMs}`);

  return {
    async find(idempotencyKey) {
      const raw = await store.get(recordKeyFor(idempotencyKey));
      return raw === null ? null : parse(raw, idempotencyKey);
    },

    /** Reserves the key for this attempt. Resolves to the reservation, or null if it is taken. */
    async reserve(idempotencyKey, fingerprint) {
      const key = `${recordKeyFor(idempotencyKey)}:${randomUUID()}`;
      const value = JSON.stringify({ state: 'pending', fingerprint, reservedBy: instanceId, reservedAt: clock.now() });
      const reserved = await store.setIfAbsent(key, value, { ttlMs: RESERVATION_TTL_MS });
      return reserved ? { key, value } : null;
    },

    async save(idempotencyKey, { fingerprint, response }) {
      const record = { fingerprint, response, savedBy: instanceId, savedAt: clock.now() };
      await store.set(recordKeyFor(idempotencyKey), JSON.stringify(record), { ttlMs });
    },

    async release(reservation) {
      return store.compareAndDelete(reservation.key, reservation.value);
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
