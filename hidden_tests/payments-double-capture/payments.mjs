// The payments of the payments-double-capture scenarios: amounts, the
// checkout's Idempotency-Keys, the ids Kestrel gives captures, and the job
// name of a request that reuses a key for another amount.

/** Amount of each payment, in pence. */
const AMOUNTS = { pay_5mQ2rT8vXc: 14800, pay_9TzL4cWq1e: 7400 };

/**
 * A job `reused:<payment>` is a caller's bug the README's contract covers: the
 * payment's Idempotency-Key sent again with another amount.
 */
export const REUSED = 'reused:';
export const REUSED_AMOUNT = 7400;
export const paymentOf = (job) => (job.startsWith(REUSED) ? job.slice(REUSED.length) : job);
export const amountOf = (job) => (job.startsWith(REUSED) ? REUSED_AMOUNT : AMOUNTS[job]);

/** The checkout's Idempotency-Key for a payment: one per capture, the same on every retry. */
export const idempotencyKeyFor = (payment) => ({
  pay_5mQ2rT8vXc: '9b1d4e7a-0c55-4f3e-a1b8-6d2f7c90e413',
  pay_9TzL4cWq1e: '41c7d2f0-8e3b-4a6d-9f15-b2e08c7a6d39',
}[payment]);

/** The id Kestrel gives the n-th capture (1-based) of a payment. */
export const captureIdFor = (payment, n) => `cap_${payment.slice(4, 10)}${n}`;
