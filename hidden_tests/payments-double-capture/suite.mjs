// Hidden tests for "The retry that charged the customer twice".
//
// The subject is the whole API (createApp().handle): each worker is one
// payments-api instance with a module graph of its own, so the instances share
// nothing but the store, as three pods share Redis. A delivery is one HTTP
// capture request from the checkout; a 409 (or any non-200) answer is not
// acknowledged, and the checkout sends the request again after Retry-After.
// Where the checkout's retries after its time-outs are the subject, it also
// stops waiting for an answer after 2 s, as the README's checkout does: an
// answer after that reaches nobody (the harness's redeliver.answerWithinMs).
//
// Every world is derived from the dossier's fault model (the repository
// README's): Redis calls take 0 to 1 s; a Kestrel capture takes anything from
// 0 s to its 10 s timeout, and may fail (an error answer, or no answer by the
// timeout) without capturing; Kestrel never deduplicates; the checkout retries
// at once when its 2 s timeout fires, once more 6 s after that, and after each
// 409 once Retry-After (1 s) has passed, for up to 30 s after its first
// attempt; any of the three instances may get any attempt; instances do not die.
//
// The payments and the properties live in the files beside this one
// (payments.mjs, properties.mjs).

import { REUSED, amountOf, captureIdFor, idempotencyKeyFor, paymentOf } from './payments.mjs';
import { checkoutGetsA200, reusedKeyRefused, sameCaptureInEveryAnswer } from './properties.mjs';

const STORE = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];

/** The fault model's time limit whose name says `what`, in ms. */
function timeoutOf(faultModel, what) {
  const found = faultModel.timeouts.find((t) => t.name.includes(what));
  if (!found) throw new Error(`the fault model has no time limit that ${what}`);
  return found.afterMs;
}

/**
 * The ways the fault model lets a capture fail, each as the Kestrel client
 * rejects: the scenario's name, the failure (the rejected error's message and
 * fields) for a payment, and the names of its three tests.
 */
function captureFailures(psp) {
  const shapes = {
    error: {
      name: 'Kestrel refuses the first capture while the checkout retries',
      failure: (paymentId) => ({ message: `Kestrel did not capture ${paymentId}: 503 service_unavailable`, name: 'PspError', code: 'service_unavailable', httpStatus: 503 }),
      tests: [
        'one capture at Kestrel when a retry follows a capture Kestrel refused',
        'the checkout ends with a 200 after a capture Kestrel refused',
        'every 200 after a capture Kestrel refused names the one capture',
      ],
    },
    timeout: {
      name: 'Kestrel does not answer the first capture while the checkout retries',
      failure: (paymentId) => ({ message: `Kestrel capture timeout: no answer for ${paymentId} within ${psp.timeoutMs} ms`, name: 'PspError', code: 'timeout' }),
      tests: [
        'one capture at Kestrel when a retry follows a capture that timed out',
        'the checkout ends with a 200 after a capture that timed out',
        'every 200 after a capture that timed out names the one capture',
      ],
    },
  };
  return psp.failures.filter((f) => f.effect === 'none' && (!f.calls || f.calls.includes('capture'))).map((f) => {
    if (!shapes[f.kind]) throw new Error(`this suite knows no Kestrel failure of kind "${f.kind}"`);
    return shapes[f.kind];
  });
}

export default ({ faultModel }) => {
  if (!faultModel) throw new Error('this suite explores the dossier\'s fault model; run it with one');
  const [api0, api1, api2] = Array.from({ length: faultModel.workers }, (_, i) => `api-${i}`);
  if (!api2) throw new Error('this suite needs the three instances of the fault model');
  const { store, psp } = faultModel.remotes;
  const { redeliveryAfterMs, redeliveryUntilMs } = faultModel.delivery;

  /** When the checkout stops waiting for its first attempt and retries at once. */
  const firstRetryAt = timeoutOf(faultModel, 'stops waiting');
  /** When the checkout's second retry after a time-out comes. */
  const secondRetryAt = firstRetryAt + timeoutOf(faultModel, 'once more');
  /** The checkout sends a request answered with anything but a 200 again after Retry-After, for its whole retry window. */
  const redeliver = { everyMs: redeliveryAfterMs, maxAttempts: Math.floor(redeliveryUntilMs / redeliveryAfterMs) };
  /**
   * The same, and the checkout's patience: it stops waiting for an answer at
   * its time limit (the moment it retries at once), and retries once more 6 s
   * after the attempt it got no answer to was sent; a late answer reaches
   * nobody. Where this is the scenario's redeliver, the first attempt is a
   * delivery (maxAttempts 1) and the retry at once is another.
   */
  const checkout = { ...redeliver, answerWithinMs: firstRetryAt, afterNoAnswerMs: [secondRetryAt - 2 * firstRetryAt] };

  /** Kestrel's capture, as slow as the model allows; `fail` makes some calls fail without capturing. */
  const kestrelCapture = (fail) => ({
    target: 'psp',
    method: 'capture',
    label: 'Kestrel capture',
    key: (args) => String(args[0]?.paymentId),
    reply: (args, call) => ({
      captureId: captureIdFor(String(args[0]?.paymentId), call.count + 1),
      status: 'succeeded',
      amount: args[0]?.amount,
      currency: args[0]?.currency,
      capturedAt: '2026-05-08T19:14:07.902Z',
    }),
    ...(fail ? { fail } : {}),
    latencyMs: psp.latencyMs,
  });

  return {
    subject: {
      module: 'src/app.js',
      factory: 'createApp',
      method: 'handle',
      deps: {
        instanceId: { $: 'worker' },
        store: { $: 'remote', name: 'store', methods: STORE },
        psp: { $: 'remote', name: 'psp', methods: ['capture'] },
        clock: { $: 'clock' },
      },
      message: (job, attempt, delivery) => ({
        method: 'POST',
        path: `/v1/payments/${paymentOf(job)}/capture`,
        headers: {
          'content-type': 'application/json',
          'idempotency-key': idempotencyKeyFor(paymentOf(job)),
          'x-request-id': `rq_${paymentOf(job).slice(4, 8)}${delivery?.index ?? 0}${attempt}`,
        },
        body: { amount: amountOf(job), currency: 'GBP' },
      }),
      acked: (response) => response?.status === 200,
    },
    effects: [kestrelCapture()],
    // No key in this API is a lock or a lease the claim properties should judge.
    claimKeys: '^lock:',
    properties: { sameCaptureInEveryAnswer, reusedKeyRefused, checkoutGetsA200 },
    limits: { maxLatencyMs: store.latencyMs[1], horizonMs: 2 * redeliveryUntilMs },
    scenarios: [
      {
        name: 'the checkout retries on another instance while the first capture is at Kestrel',
        redeliver,
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api1, job: 'pay_5mQ2rT8vXc', at: firstRetryAt },
        ],
        tests: [
          { name: 'one capture at Kestrel per key when the retry races the first capture', property: 'exactlyOncePerJob' },
          { name: 'every 200 for the key names the same capture', property: 'sameCaptureInEveryAnswer' },
          { name: 'the retry ends with a 200 once the first capture is done', property: 'allDeliveriesAcked' },
        ],
      },
      {
        // One instance handles many requests at once (README, fault model): the
        // retry may reach the instance still handling the first attempt, and the
        // two share its memory.
        name: 'the checkout retries on the same instance while the first capture is at Kestrel',
        redeliver,
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: firstRetryAt },
        ],
        tests: [
          { name: 'one capture at Kestrel when the retry reaches the instance still handling the first attempt', property: 'exactlyOncePerJob' },
          { name: 'every 200 names the same capture when the retry reaches the same instance', property: 'sameCaptureInEveryAnswer' },
          { name: 'a retry on the same instance ends with a 200 once the first capture is done', property: 'allDeliveriesAcked' },
        ],
      },
      // The same, when Kestrel refuses the first capture: what the instance
      // keeps for one request must not be taken for the other's. The checkout
      // stopped waiting for its first attempt when it retried, so only the
      // retry is sent again (and its answer is the one the checkout gets).
      ...captureFailures(psp).slice(0, 1).map(({ failure }) => ({
        name: 'Kestrel refuses the first capture while the checkout retries on the same instance',
        effects: [kestrelCapture((args, call) => call.failures === 0 && failure(args[0]?.paymentId))],
        redeliver,
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0, maxAttempts: 1 },
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: firstRetryAt },
        ],
        tests: [
          { name: 'one capture at Kestrel when a refused capture is retried on the same instance', property: 'exactlyOncePerJob' },
        ],
      })),
      {
        name: 'both retries of the checkout come while the first capture is at Kestrel',
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api1, job: 'pay_5mQ2rT8vXc', at: firstRetryAt },
          { worker: api2, job: 'pay_5mQ2rT8vXc', at: secondRetryAt },
        ],
        tests: [
          { name: 'one capture at Kestrel when the second retry comes while the first capture is still running', property: 'exactlyOncePerJob' },
        ],
      },
      {
        // The ingress may send the request again at any moment while the first
        // is handled: the explorer tries every one it can tell apart.
        name: 'a request with the same key arrives at any moment of the first one\'s capture',
        redeliver,
        limits: { maxDelays: 1 },
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api1, job: 'pay_5mQ2rT8vXc', during: 0 },
        ],
        tests: [
          { name: 'one capture at Kestrel whenever the second request with the key arrives', property: 'exactlyOncePerJob' },
          { name: 'both requests end with a 200 for the one capture, whenever the second arrives', property: 'allDeliveriesAcked' },
        ],
      },
      {
        name: 'two requests with one key arrive together',
        redeliver,
        // The reference needs 2 600 steps of work; a correct fix that makes
        // seven store and Kestrel calls a request (an in-memory 409 for the
        // instance's own keys, and reads that decide nothing), 11 800.
        limits: { maxDelays: 1, maxWork: 16_000 },
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api1, job: 'pay_5mQ2rT8vXc', at: 0 },
        ],
        tests: [
          { name: 'one capture at Kestrel when two requests with one key arrive together', property: 'exactlyOncePerJob' },
          { name: 'both requests end with a 200 for the one capture', property: 'allDeliveriesAcked' },
        ],
      },
      // One scenario per way the fault model lets a capture fail (an error
      // answer, no answer by the timeout), each failing as the Kestrel client
      // rejects (src/psp/kestrel-client.js: a PspError with its code), so a fix
      // that treats one kind of failure differently meets that kind.
      ...captureFailures(psp).map(({ name, failure, tests: [once, acked, same] }) => ({
        name,
        effects: [kestrelCapture((args, call) => call.failures === 0 && failure(args[0]?.paymentId))],
        // The checkout waits 2 s for each answer: a retry that waits for the
        // failing capture instead of answering 409 spends both of its retries
        // after a time-out on it.
        redeliver: checkout,
        // The reference needs 2 500 steps of work at both paces; a release that
        // reads the record and then deletes it, 8 050; a failed capture left as
        // a tombstone that the retry clears, 47 950.
        limits: { maxDelays: 1, maxWork: 64_000 },
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0, maxAttempts: 1 },
          { worker: api1, job: 'pay_5mQ2rT8vXc', at: firstRetryAt },
        ],
        tests: [
          { name: once, property: 'exactlyOncePerJob' },
          { name: acked, property: 'checkoutGetsA200' },
          { name: same, property: 'sameCaptureInEveryAnswer' },
        ],
      })),
      {
        name: 'the checkout retries at the end of its retry window',
        redeliver,
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api2, job: 'pay_5mQ2rT8vXc', at: redeliveryUntilMs },
        ],
        tests: [
          { name: 'one capture at Kestrel when the checkout retries 30 s later', property: 'exactlyOncePerJob' },
          { name: 'a late retry gets the capture already made', property: 'sameCaptureInEveryAnswer' },
          { name: 'a late retry ends with a 200', property: 'allDeliveriesAcked' },
        ],
      },
      {
        name: 'the Idempotency-Key comes back with another amount',
        expect: ['pay_5mQ2rT8vXc'],
        // Once the key's capture is answered: while it is pending, a 409 is an
        // answer the README allows too, and the caller would come back for the
        // 422. Nothing fails here, so its first answer is the one it keeps (a
        // 422 is not a 200, and would otherwise be sent again for the whole
        // retry window).
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api1, job: `${REUSED}pay_5mQ2rT8vXc`, after: 0, delayMs: 0 },
        ],
        tests: [
          { name: 'a request that reuses a key for another amount is refused', property: 'reusedKeyRefused' },
        ],
      },
      {
        // The caller's bug, at once: the key with its amount on one instance
        // and with another amount on the other. Whichever request takes the
        // key, the card is captured once for it (README: at most once per
        // key, however many times and to whichever instances it is sent).
        name: 'the Idempotency-Key arrives with two amounts at once',
        expect: ['pay_5mQ2rT8vXc'],
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api1, job: `${REUSED}pay_5mQ2rT8vXc`, at: 0 },
        ],
        tests: [
          { name: 'a key sent with two amounts at once is captured once', property: 'exactlyOncePerJob' },
        ],
      },
      {
        name: 'two different payments at once',
        redeliver,
        // The reference needs 700 steps of work; a fix that renews its
        // reservation every 3.7 s while the capture runs, 10 100.
        limits: { maxWork: 16_000 },
        barrier: { target: 'psp', method: 'capture' },
        deliveries: [
          { worker: api0, job: 'pay_5mQ2rT8vXc', at: 0 },
          { worker: api1, job: 'pay_9TzL4cWq1e', at: 0 },
        ],
        tests: [
          { name: 'captures of different payments are not serialised', property: 'inFlightTogether' },
        ],
      },
    ],
  };
};
