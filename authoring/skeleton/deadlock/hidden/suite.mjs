// Hidden tests of the dossier {{slug}}, written by `racecase new --class deadlock`.
//
// The harness imports src/worker.js once per simulated worker (each its own
// process) and explores every order in which their store, lock and journal
// calls can arrive, within the fault model of repo/README.md. hidden_tests/
// harness/SUITES.md in the racecase repository describes every field;
// challenges/README.md shows each capability with the class scaffold that uses it.
//
// Shows: the blocking lock service (`name: 'locks'`), whose waits the harness
// reports as a deadlock with its cycle when every worker waits; boundedCalls for
// retry loops that never end; and a barrier that demands concurrency.

/** Opening balances in cents. */
const OPENING = { 'acct-a': 5000, 'acct-b': 5000, 'acct-c': 5000, 'acct-d': 5000 };

/** Every transfer of the scenarios, by job. */
const TRANSFERS = {
  'trf-1': { from: 'acct-a', to: 'acct-b', amountCents: 700 },
  'trf-2': { from: 'acct-b', to: 'acct-a', amountCents: 200 },
  'trf-3': { from: 'acct-c', to: 'acct-a', amountCents: 300 },
  'trf-4': { from: 'acct-c', to: 'acct-d', amountCents: 400 },
};

const balanceKey = (account) => `balance:${account}`;
const opened = Object.fromEntries(Object.entries(OPENING).map(([account, cents]) => [balanceKey(account), String(cents)]));

/** Once every transfer is done, each balance is its opening balance plus what came in minus what went out. */
const balancesAddUp = {
  end(world) {
    const want = { ...OPENING };
    for (const d of world.deliveries) {
      const { from, to, amountCents } = TRANSFERS[d.job];
      want[from] -= amountCents;
      want[to] += amountCents;
    }
    for (const [account, cents] of Object.entries(want)) {
      const got = world.store.entry(balanceKey(account), world.now)?.value ?? null;
      if (got === String(cents)) continue;
      world.violate('balancesAddUp', `${balanceKey(account)} ends at ${got} cents, but the transfers leave it at ${cents}: money was lost or made up`,
        world.trace.filter((s) => s.key === balanceKey(account) && s.operation === 'set'));
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
      store: { $: 'remote', name: 'store', methods: ['get', 'set'] },
      locks: { $: 'remote', name: 'locks', methods: ['acquire', 'tryAcquire', 'release'] },
      journal: { $: 'remote', name: 'journal', methods: ['append'] },
    },
    message: (job) => ({ transferId: job, ...TRANSFERS[job] }),
    acked: (outcome) => outcome === 'posted',
  },
  effects: [{ target: 'journal', method: 'append', label: 'journal entry' }],
  properties: { balancesAddUp },
  // A retry loop is cut short after 30 calls of one delivery (boundedCalls), a
  // schedule after 400 steps, and a failing run soon after its first counterexample.
  limits: { maxCallsPerDelivery: 30, maxSteps: 400, maxSchedulesAfterFailure: 20 },
  scenarios: [
    {
      // A schedule where both workers wait for a lock the other holds ends
      // "stuck": every test of the scenario fails with the cycle.
      name: 'two transfers between the same two accounts, in opposite directions, at once',
      store: opened,
      deliveries: [
        { worker: 'blue', job: 'trf-1', at: 0 },
        { worker: 'green', job: 'trf-2', at: 0 },
      ],
      tests: [
        { name: 'transfers in opposite directions both complete', property: 'balancesAddUp' },
        { name: 'no transfer keeps retrying its locks without end', property: 'boundedCalls' },
      ],
    },
    {
      name: 'two transfers into one account at once',
      store: opened,
      deliveries: [
        { worker: 'blue', job: 'trf-1', at: 0 },
        { worker: 'green', job: 'trf-3', at: 0 },
      ],
      tests: [
        { name: 'no money is lost when two transfers credit one account at once', property: 'balancesAddUp' },
        { name: 'no transfer keeps retrying its locks without end when two credit one account', property: 'boundedCalls' },
      ],
    },
    {
      // The journal holds each call until two different transfers are at it
      // together: a fix that runs one transfer at a time never gets there.
      name: 'two transfers between four different accounts at once',
      store: opened,
      barrier: true,
      deliveries: [
        { worker: 'blue', job: 'trf-1', at: 0 },
        { worker: 'green', job: 'trf-4', at: 0 },
      ],
      tests: [{ name: 'transfers between different accounts run at the same time', property: 'inFlightTogether' }],
    },
  ],
};
