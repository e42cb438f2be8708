// Hidden tests of the dossier {{slug}}, written by `racecase new --class lost-update`.
//
// The harness imports src/worker.js once per simulated worker (each its own
// process) and explores every order in which their store calls can arrive,
// within the fault model of repo/README.md. hidden_tests/harness/SUITES.md in
// the racecase repository describes every field; challenges/README.md shows
// each capability with the class scaffold that uses it.
//
// Shows: a property of your own over the store (pointsAddUp), several
// deliveries handled at once by one worker, and boundedCalls, which turns a
// retry loop that never ends into a failure instead of an unfinished run.

const OPENING = { 'acct-9': 100 };

/** Every award message of the scenarios, by job. */
const AWARDS = {
  'order-1': { accountId: 'acct-9', points: 10 },
  'order-2': { accountId: 'acct-9', points: 5 },
  'order-3': { accountId: 'acct-9', points: 20 },
};

const balanceKey = (accountId) => `points:${accountId}`;

/** Once every delivery is done, each balance is its opening balance plus its awards. */
const pointsAddUp = {
  end(world) {
    for (const [accountId, opening] of Object.entries(OPENING)) {
      const awards = world.deliveries.map((d) => AWARDS[d.job]).filter((a) => a.accountId === accountId);
      const want = opening + awards.reduce((sum, a) => sum + a.points, 0);
      const got = world.store.entry(balanceKey(accountId), world.now)?.value ?? null;
      if (got === String(want)) continue;
      world.violate('pointsAddUp',
        `${balanceKey(accountId)} ends at ${got}, but ${opening} + ${awards.map((a) => a.points).join(' + ')} = ${want}: an award was lost`,
        world.trace.filter((s) => s.key === balanceKey(accountId) && s.operation !== 'get'));
      return;
    }
  },
};

export default {
  subject: {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      store: { $: 'remote', name: 'store', methods: ['get', 'set', 'compareAndSet', 'incrBy'] },
    },
    message: (job) => ({ orderId: job, ...AWARDS[job] }),
    acked: (outcome) => outcome === 'awarded',
  },
  properties: { pointsAddUp },
  // A retry loop that never gives up is cut short after 20 calls (boundedCalls),
  // and a failing run stops soon after its first counterexample.
  limits: { maxCallsPerDelivery: 20, maxSchedulesAfterFailure: 20 },
  scenarios: [
    {
      name: 'two awards for one account on two workers at once',
      store: { [balanceKey('acct-9')]: String(OPENING['acct-9']) },
      deliveries: [
        { worker: 'blue', job: 'order-1', at: 0 },
        { worker: 'green', job: 'order-2', at: 0 },
      ],
      tests: [
        { name: 'every award for an account is counted', property: 'pointsAddUp' },
        { name: 'no award keeps retrying without end', property: 'boundedCalls' },
      ],
    },
    {
      // Two deliveries of one worker that do not wait for each other: blue
      // handles them at once, as one process handles concurrent requests.
      name: 'one worker handles two awards at once while the other handles a third',
      store: { [balanceKey('acct-9')]: String(OPENING['acct-9']) },
      deliveries: [
        { worker: 'blue', job: 'order-1', at: 0 },
        { worker: 'blue', job: 'order-2', at: 0 },
        { worker: 'green', job: 'order-3', at: 0 },
      ],
      tests: [
        { name: 'every award counts when a worker handles several at once', property: 'pointsAddUp' },
        { name: 'no award keeps retrying without end when a worker handles several at once', property: 'boundedCalls' },
      ],
    },
  ],
};
