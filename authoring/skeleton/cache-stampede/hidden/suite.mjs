// Hidden tests of the dossier {{slug}}, written by `racecase new --class cache-stampede`.
//
// The harness imports src/worker.js once per simulated worker (each its own
// process) and explores every order in which the worker's calls to the pricing
// service can arrive and its timers fire, within the fault model of
// repo/README.md. hidden_tests/harness/SUITES.md in the racecase repository
// describes every field; challenges/README.md shows each capability with the
// class scaffold that uses it.
//
// Shows: deliveries handled at once by one worker (each call attributed to the
// request that made it), services.rateLimited() from the service kit, a scenario
// whose service fails for a while (its reply refuses with call.reject), and
// properties over the trace and the deliveries' outcomes.

const SKU = 'sku-42';
const QUOTE = { sku: SKU, cents: 1_299 };

/** The quotes the pricing service gave or refused: the trace's steps at it. */
const pricingCalls = (world) => world.trace.filter((s) => s.service === 'pricing');

/** Requests that miss at the same time ask the pricing service once between them. */
const oneQuotePerMiss = {
  end(world) {
    const calls = pricingCalls(world);
    if (calls.length <= 1) return;
    const refused = calls.filter((s) => /429/.test(s.result)).length;
    world.violate('oneQuotePerMiss',
      `${SKU} was quoted ${calls.length} times for ${world.deliveries.length} requests that arrived together`
      + `${refused > 0 ? `; the pricing service refused ${refused} of them (429)` : ''}: concurrent misses should share one quote`, calls);
  },
};

/** A request that arrives after the pricing service recovered gets a price. */
const servedAfterRecovery = {
  end(world) {
    const late = world.deliveries.filter((d) => d.after !== undefined);
    const failed = late.find((d) => d.outcome?.cents !== QUOTE.cents);
    if (failed) {
      world.violate('servedAfterRecovery',
        `${failed.job} arrived after the pricing service recovered but got ${JSON.stringify(failed.outcome)}: an earlier failure was kept and served again`);
    }
  },
};

export default ({ services }) => ({
  subject: {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      pricing: { $: 'remote', name: 'pricing', methods: ['quote'] },
      clock: { $: 'clock' },
    },
    message: (job) => ({ requestId: job, sku: SKU }),
    acked: (outcome) => outcome?.cents === QUOTE.cents,
  },
  // One quote a second at most; a quote over the rate is refused with a 429.
  // A quote takes 200 to 400 ms.
  services: { pricing: services.rateLimited({ methods: ['quote'], perSecond: 1, reply: () => QUOTE, latencyMs: [200, 400] }) },
  properties: { oneQuotePerMiss, servedAfterRecovery },
  limits: { maxDelays: 0, maxSchedulesAfterFailure: 20 },
  scenarios: [
    {
      // Three deliveries of one worker that do not wait for each other: it
      // handles them at once, as one process handles concurrent requests.
      name: 'three page views of one product reach one worker at once',
      deliveries: [
        { worker: 'blue', job: 'req-1', at: 0 },
        { worker: 'blue', job: 'req-2', at: 0 },
        { worker: 'blue', job: 'req-3', at: 0 },
      ],
      tests: [
        { name: 'every concurrent request for a product gets its price', property: 'allDeliveriesAcked' },
        { name: 'concurrent misses for one product ask the pricing service once', property: 'oneQuotePerMiss' },
      ],
    },
    {
      // This scenario's pricing service is down for its first second.
      name: 'the pricing service fails a quote, then recovers',
      services: {
        pricing: services.rateLimited({
          methods: ['quote'],
          perSecond: 1,
          reply: (args, call) => (call.at < 1_000 ? call.reject('503 Service Unavailable') : QUOTE),
          latencyMs: [200, 400],
        }),
      },
      deliveries: [
        { worker: 'blue', job: 'req-1', at: 0 },
        { worker: 'blue', job: 'req-2', after: 0, delayMs: 2_000 },
      ],
      tests: [{ name: 'a failed quote is not served to requests after the service recovered', property: 'servedAfterRecovery' }],
    },
  ],
});
