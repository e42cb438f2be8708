/**
 * Charges an order through the payment gateway, retrying a request the
 * gateway does not answer in time.
 *
 * The gateway takes an idempotency key with every charge: a charge whose key
 * it has seen before is not made again; it answers with the first charge.
 * The store keeps `paid:<orderId>` (the charge id) once an order is paid.
 */

import { randomUUID } from 'node:crypto';

/** How long to wait for the gateway before retrying, in ms. */
export const TIMEOUT_MS = 1_000;

/** How many requests to send at most for one charge. */
export const MAX_ATTEMPTS = 3;

/** What a request that took too long rejects with. */
const TIMED_OUT = new Error(`the gateway did not answer within ${TIMEOUT_MS} ms`);

/**
 * Creates the payment helper of one worker.
 *
 * @param {object} options
 * @param {import('./memory-store.js').KeyValueStore} options.store the shared store
 * @param {{ charge(request: { orderId: string, amountCents: number, idempotencyKey: string }): Promise<{ chargeId: string }> }} options.gateway
 * @param {{ sleep(ms: number): Promise<void> }} options.clock
 */
export function createPayments({ store, gateway, clock }) {
  /** Sends one charge request, rejecting with TIMED_OUT if the gateway takes too long. */
  const request = (charge) => Promise.race([gateway.charge(charge), clock.sleep(TIMEOUT_MS).then(() => Promise.reject(TIMED_OUT))]);

  return {
    /**
     * Charges the order, unless it is paid already.
     * @param {{ orderId: string, amountCents: number }} order
     * @returns {Promise<'charged' | 'already-paid'>}
     */
    async pay({ orderId, amountCents }) {
      if ((await store.get(`paid:${orderId}`)) !== null) return 'already-paid';
      // One idempotency key per order, kept in the store for every retry and redelivery.
      let idempotencyKey = await store.get(`idempotency:${orderId}`);
      if (idempotencyKey === null) {
        idempotencyKey = randomUUID();
        await store.set(`idempotency:${orderId}`, idempotencyKey);
      }
      for (let attempt = 1; ; attempt++) {
        try {
          const charge = await request({ orderId, amountCents, idempotencyKey });
          await store.set(`paid:${orderId}`, charge.chargeId);
          return 'charged';
        } catch (error) {
          if (error !== TIMED_OUT || attempt === MAX_ATTEMPTS) throw error;
        }
      }
    },
  };
}
