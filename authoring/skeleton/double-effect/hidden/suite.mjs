// Hidden tests of the dossier {{slug}}, written by `racecase new --class double-effect`.
//
// The harness imports src/worker.js once per simulated worker (each its own
// process) and explores every order in which their store calls and charges can
// arrive and their timers fire, within the fault model of repo/README.md.
// hidden_tests/harness/SUITES.md in the racecase repository describes every
// field; challenges/README.md shows each capability with the class scaffold
// that uses it.
//
// Shows: a stateful service written in the suite (a gateway that remembers
// idempotency keys), a scenario that replaces it with a slower one and sets its
// own limits, and a property that reads the service's state.

const ORDER = { orderId: 'ord-7', amountCents: 4_200 };

/**
 * A payment gateway that charges each idempotency key once: a request with a
 * key it has seen answers with the first charge, as real gateways do.
 * @param {[number, number]} latencyMs how long a charge takes
 */
function gateway(latencyMs) {
  return {
    latencyMs,
    state: () => ({ byKey: {}, charges: [] }),
    methods: {
      charge(state, [request]) {
        const seen = state.byKey[request.idempotencyKey];
        if (seen) return seen;
        const charge = { chargeId: `ch_${state.charges.length + 1}`, orderId: request.orderId, idempotencyKey: request.idempotencyKey };
        state.charges.push(charge);
        state.byKey[request.idempotencyKey] = charge;
        return charge;
      },
    },
    describe: (method, [request], reply) => `${reply.chargeId} for ${request.orderId} (key ${request.idempotencyKey})`,
  };
}

/** Each order is charged exactly once, however many requests reached the gateway. */
const chargedOnce = {
  end(world) {
    const charges = world.services.state('gateway').charges.filter((c) => c.orderId === ORDER.orderId);
    if (charges.length === 1) return;
    world.violate('chargedOnce', charges.length === 0
      ? `${ORDER.orderId} was never charged`
      : `${ORDER.orderId} was charged ${charges.length} times: ${charges.map((c) => `${c.chargeId} (key ${c.idempotencyKey})`).join(', ')}`,
    world.trace.filter((s) => s.service === 'gateway' && charges.some((c) => s.result.startsWith(c.chargeId))));
  },
};

export default {
  subject: {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      store: { $: 'remote', name: 'store', methods: ['get', 'set', 'setIfAbsent'] },
      gateway: { $: 'remote', name: 'gateway', methods: ['charge'] },
      clock: { $: 'clock' },
    },
    message: () => ORDER,
    acked: (outcome) => outcome === 'charged' || outcome === 'already-paid',
  },
  // The gateway usually answers well within the client's 1 s timeout.
  services: { gateway: gateway([100, 600]) },
  properties: { chargedOnce },
  limits: { maxLatencyMs: 50, maxDelays: 0, maxSchedulesAfterFailure: 20 },
  scenarios: [
    {
      // This scenario's gateway replaces the suite's: it can take longer than
      // the client's timeout; one delay lets the timeout fire before an answer.
      name: 'the gateway answers after the client gave up waiting',
      services: { gateway: gateway([800, 1_500]) },
      limits: { maxDelays: 1 },
      deliveries: [{ worker: 'blue', job: 'pay-ord-7', at: 0 }],
      tests: [{ name: 'an order is charged once when a request is retried after a timeout', property: 'chargedOnce' }],
    },
    {
      name: 'the same order delivered to two workers at once',
      deliveries: [
        { worker: 'blue', job: 'pay-ord-7', at: 0 },
        { worker: 'green', job: 'pay-ord-7', at: 0 },
      ],
      tests: [{ name: 'an order is charged once when two workers pay it at once', property: 'chargedOnce' }],
    },
  ],
};
