// Hidden tests of the dossier {{slug}}, written by `racecase new`.
//
// The harness imports src/worker.js once per simulated worker (each in its own
// module graph, as separate processes), gives every worker the fake store and
// the fake mailer, and explores every order in which their calls can arrive and
// their timers fire, within the fault model stated in repo/README.md (calls
// complete within 1 s, the claim lease is 30 s, redelivery after 5 s).
// hidden_tests/harness/SUITES.md in the racecase repository describes every field.
//
// Learners never see this file. Keep every scenario small: two workers, one or
// two jobs. The explorer multiplies, you do not need to.

const STORE = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];

export default {
  // What the learner's code is: worker = (await import(module))[factory](deps),
  // then worker[method](message) once per delivery.
  subject: {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      store: { $: 'remote', name: 'store', methods: STORE },
      mailer: { $: 'remote', name: 'mailer', methods: ['send'] },
      clock: { $: 'clock' },
      claimTtlMs: 30_000,
    },
    message: (job, attempt) => ({
      id: `msg-${job}`,
      jobId: job,
      attempt,
      orderId: `ord-${job}`,
      recipient: `${job}@customers.example`,
    }),
    // Which outcomes acknowledge a delivery; the others are delivered again
    // in scenarios with `redeliver`.
    acked: (outcome) => outcome === 'sent' || outcome === 'duplicate',
  },
  // The side effects the properties count: one receipt per job.
  effects: [{ target: 'mailer', method: 'send', label: 'receipt' }],
  // Store keys that hold claims; claimsRespected and claimsReleased judge these.
  claimKeys: '^claim:',
  // A failing run stops 20 schedules after its first counterexample.
  limits: { maxLatencyMs: 1000, horizonMs: 120_000, maxSchedulesAfterFailure: 20 },
  scenarios: [
    {
      name: 'the same job delivered to two workers at once',
      deliveries: [
        { worker: 'blue', job: 'job-7', at: 0 },
        { worker: 'green', job: 'job-7', at: 0 },
      ],
      tests: [
        { name: 'exactly one receipt per job in every schedule', property: 'exactlyOncePerJob' },
        { name: 'nobody overwrites or deletes a live claim owned by another worker', property: 'claimsRespected' },
        { name: 'a worker that finishes releases its claim', property: 'claimsReleased' },
      ],
    },
    {
      // Catches fixes that serialise everything: the mailer waits until two
      // different jobs are at it together.
      name: 'two different jobs at once',
      barrier: true,
      deliveries: [
        { worker: 'blue', job: 'job-7', at: 0 },
        { worker: 'green', job: 'job-8', at: 0 },
      ],
      tests: [{ name: 'two different jobs can be in flight together', property: 'inFlightTogether' }],
    },
    {
      // Catches fixes that drop the sent-record.
      name: 'redelivery after a successful send',
      deliveries: [
        { worker: 'blue', job: 'job-7', at: 0 },
        { worker: 'green', job: 'job-7', after: 0, delayMs: 5_000 },
      ],
      tests: [{ name: 'a redelivery after success sends nothing', property: 'exactlyOncePerJob' }],
    },
    {
      // Catches claims without a lease: blue dies holding the claim.
      name: 'a worker crashes right after claiming the job',
      crash: { worker: 'blue' },
      redeliver: { everyMs: 5_000, maxAttempts: 12 },
      deliveries: [
        { worker: 'blue', job: 'job-7', at: 0 },
        { worker: 'green', job: 'job-7', at: 5_000 },
      ],
      tests: [{ name: 'a worker that crashes after claiming does not block the job forever', property: 'exactlyOncePerJob' }],
    },
  ],
};
