// The properties of the payments-double-capture suite beyond the harness's
// own: every 200 names the one capture, a reused key is refused, and the
// checkout ends with a 200 it was still waiting for.

import { REUSED, REUSED_AMOUNT, captureIdFor, paymentOf } from './payments.mjs';

/** The capture id an answer names, if it is a 200. */
function capturedId(outcome) {
  if (!outcome || typeof outcome !== 'object' || outcome.status !== 200) return undefined;
  return outcome.body?.captureId ?? null;
}

/**
 * Every 200 the API gave for a payment's key names the one capture Kestrel
 * made for it (and so the same capture as every other 200 for that key).
 */
export const sameCaptureInEveryAnswer = {
  end(world) {
    for (const payment of new Set(world.deliveries.map((d) => d.job))) {
      const made = world.sends.filter((s) => s.key === payment);
      const ids = made.map((_, i) => captureIdFor(payment, i + 1));
      const answers = world.deliveries
        .filter((d) => d.job === payment && capturedId(d.outcome) !== undefined)
        .map((d) => ({ worker: d.worker, id: capturedId(d.outcome) }));
      const unknown = answers.find((a) => !ids.includes(a.id));
      if (unknown) {
        world.violate('sameCaptureInEveryAnswer',
          `${unknown.worker} answered 200 for ${payment} naming capture ${JSON.stringify(unknown.id)}, which Kestrel never made`
          + ` (Kestrel made ${ids.length === 0 ? 'none' : ids.join(', ')})`, made.map((s) => s.step));
        return;
      }
      const named = [...new Set(answers.map((a) => a.id))];
      if (named.length > 1) {
        world.violate('sameCaptureInEveryAnswer',
          `the 200s for ${payment}'s Idempotency-Key name different captures: `
          + `${answers.map((a) => `${a.worker} answered ${a.id}`).join(', ')}; every answer for one key must name the same capture`,
          made.map((s) => s.step));
        return;
      }
    }
  },
};

/**
 * The checkout ends with a 200 for each payment: one of the requests it sent
 * with the payment's key was answered 200 while it still waited for the answer
 * (an answer after its time limit reaches nobody). Where the checkout's
 * retries are deliveries of their own, this is the checkout's promise; every
 * delivery being acked is not: the checkout stops waiting for its first
 * attempt when it retries.
 */
export const checkoutGetsA200 = {
  end(world) {
    for (const payment of new Set(world.deliveries.map((d) => paymentOf(d.job)))) {
      const sent = world.deliveries.filter((d) => paymentOf(d.job) === payment);
      if (sent.some((d) => d.acked || world.crashed.has(d.worker))) continue;
      world.violate('checkoutGetsA200', `the checkout never got a 200 for ${payment}: `
        + `${sent.map((d) => `its request to ${d.worker} ended with ${JSON.stringify(d.outcome ?? 'no answer')}`).join(', ')}`
        + ` (${describeCheckout(world.scenario.redeliver)})`);
      return;
    }
  },
};

/** How the checkout retries, as a scenario's redeliver has it. */
function describeCheckout({ everyMs, answerWithinMs, afterNoAnswerMs = [] }) {
  const waits = answerWithinMs === undefined ? '' : `it waits ${answerWithinMs} ms for an answer and retries `
    + `${afterNoAnswerMs.length} more time${afterNoAnswerMs.length === 1 ? '' : 's'} after one it did not get; `;
  return `${waits}it retries a 409 after ${everyMs} ms, for its whole retry window`;
}

/**
 * A request that sends a payment's Idempotency-Key with another amount is
 * answered 422 idempotency_key_reused (README, "The capture endpoint"), and
 * Kestrel never captures that amount.
 */
export const reusedKeyRefused = {
  end(world) {
    const wrong = world.sends.find((s) => s.args?.[0]?.amount === REUSED_AMOUNT);
    if (wrong) {
      world.violate('reusedKeyRefused', `${wrong.worker} captured ${REUSED_AMOUNT} at Kestrel for a request that sent `
        + `${wrong.args[0].paymentId}'s Idempotency-Key with another amount`, [wrong.step]);
      return;
    }
    for (const d of world.deliveries.filter((x) => x.job.startsWith(REUSED))) {
      if (d.outcome?.status === 422) continue;
      const got = typeof d.outcome === 'object' && d.outcome ? `${d.outcome.status} ${JSON.stringify(d.outcome.body ?? null).slice(0, 120)}`
        : String(d.outcome);
      world.violate('reusedKeyRefused', `${d.worker} answered ${got} to a request that sent ${paymentOf(d.job)}'s `
        + `Idempotency-Key with the amount ${REUSED_AMOUNT}; the README answers such a request 422 idempotency_key_reused`, []);
      return;
    }
  },
};
