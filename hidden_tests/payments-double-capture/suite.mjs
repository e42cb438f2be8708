// Hidden tests for "The retry that charged the customer twice".
//
// The subject is the whole API (createApp().handle): each worker is one
// payments-api instance with a module graph of its own, so the instances share
// nothing but the store, as three pods share Redis. A delivery is one HTTP
// capture request from the checkout; a 409 (or any non-200) answer is not
// acknowledged, and the checkout sends the request again after Retry-After.
//
// The fault model is the repository README's: Redis calls complete within 1 s,
// Kestrel never deduplicates, the checkout's first retry comes when its 2 s
// timeout fires and a later one ~10 s after the first attempt, 409s are retried
// after Retry-After (1 s), and instances do not die. Kestrel captures take
// 2.1-2.6 s here: the on-sale's slow tail (README: p99 2.57 s), the captures
// that outlast the checkout's timeout and so are the ones that get retried.

const STORE = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];

/** Amount of each payment, in pence. */
const AMOUNTS = { pay_5mQ2rT8vXc: 14800, pay_9TzL4cWq1e: 7400 };

/** The checkout's Idempotency-Key for a payment: one per capture, the same on every retry. */
const idempotencyKeyFor = (payment) => ({
  pay_5mQ2rT8vXc: '9b1d4e7a-0c55-4f3e-a1b8-6d2f7c90e413',
  pay_9TzL4cWq1e: '41c7d2f0-8e3b-4a6d-9f15-b2e08c7a6d39',
}[payment]);

/** The id Kestrel gives the n-th capture (1-based) of a payment. */
const captureIdFor = (payment, n) => `cap_${payment.slice(4, 10)}${n}`;

/** The capture id an answer names, if it is a 200. */
function capturedId(outcome) {
  if (!outcome || typeof outcome !== 'object' || outcome.status !== 200) return undefined;
  return outcome.body?.captureId ?? null;
}

/**
 * Every 200 the API gave for a payment's key names the one capture Kestrel
 * made for it (and so the same capture as every other 200 for that key).
 */
const sameCaptureInEveryAnswer = {
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

export default {
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
    message: (payment, attempt, delivery) => ({
      method: 'POST',
      path: `/v1/payments/${payment}/capture`,
      headers: {
        'content-type': 'application/json',
        'idempotency-key': idempotencyKeyFor(payment),
        'x-request-id': `rq_${payment.slice(4, 8)}${delivery?.index ?? 0}${attempt}`,
      },
      body: { amount: AMOUNTS[payment], currency: 'GBP' },
    }),
    acked: (response) => response?.status === 200,
  },
  effects: [
    {
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
      latencyMs: [2100, 2600],
    },
  ],
  // No key in this API is a lock or a lease the claim properties should judge.
  claimKeys: '^lock:',
  properties: { sameCaptureInEveryAnswer },
  limits: { maxLatencyMs: 1000, horizonMs: 60_000 },
  scenarios: [
    {
      name: 'the checkout retries on another instance while the first capture is at Kestrel',
      redeliver: { everyMs: 1000, maxAttempts: 8 },
      deliveries: [
        { worker: 'api-0', job: 'pay_5mQ2rT8vXc', at: 0 },
        { worker: 'api-1', job: 'pay_5mQ2rT8vXc', at: 2000 },
      ],
      tests: [
        { name: 'one capture at Kestrel per key when the retry races the first capture', property: 'exactlyOncePerJob' },
        { name: 'every 200 for the key names the same capture', property: 'sameCaptureInEveryAnswer' },
        { name: 'the retry ends with a 200 once the first capture is done', property: 'allDeliveriesAcked' },
      ],
    },
    {
      name: 'two requests with one key arrive together',
      redeliver: { everyMs: 1000, maxAttempts: 8 },
      deliveries: [
        { worker: 'api-0', job: 'pay_5mQ2rT8vXc', at: 0 },
        { worker: 'api-1', job: 'pay_5mQ2rT8vXc', at: 0 },
      ],
      tests: [
        { name: 'one capture at Kestrel when two requests with one key arrive together', property: 'exactlyOncePerJob' },
      ],
    },
    {
      name: 'the checkout retries 10 s after the first answer',
      deliveries: [
        { worker: 'api-0', job: 'pay_5mQ2rT8vXc', at: 0 },
        { worker: 'api-2', job: 'pay_5mQ2rT8vXc', after: 0, delayMs: 10_000 },
      ],
      tests: [
        { name: 'one capture at Kestrel when the checkout retries 10 s later', property: 'exactlyOncePerJob' },
        { name: 'a late retry gets the capture already made', property: 'sameCaptureInEveryAnswer' },
      ],
    },
    {
      name: 'two different payments at once',
      barrier: { target: 'psp', method: 'capture' },
      deliveries: [
        { worker: 'api-0', job: 'pay_5mQ2rT8vXc', at: 0 },
        { worker: 'api-1', job: 'pay_9TzL4cWq1e', at: 0 },
      ],
      tests: [
        { name: 'captures of different payments are not serialised', property: 'inFlightTogether' },
      ],
    },
  ],
};
