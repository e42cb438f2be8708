// Hidden tests for "The job that two workers both completed".
//
// Each scenario is explored in every schedule: every order in which the workers'
// store and provider calls can arrive, and every point at which a timer or a
// redelivery can fire, within the fault model stated in the repository README
// (calls complete within 1 s, the lock lease is 30 s, redelivery after 5 s).

const STORE = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];

export default {
  subject: {
    module: 'src/worker/consumer.js',
    factory: 'createConsumer',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      store: { $: 'remote', name: 'store', methods: STORE },
      provider: { $: 'remote', name: 'provider', methods: ['send'] },
      clock: { $: 'clock' },
      config: { lockTtlMs: 30_000, visibilityTimeoutMs: 5_000 },
    },
    // The queue keeps one id per message, the same on every delivery, and numbers
    // its deliveries 1, 2, … whichever worker gets them (see the README).
    message: (job, attempt) => ({
      id: `msg-${job.replace('job-', '')}`,
      jobId: job,
      attempt,
      payload: { orderId: `ord-${job}`, recipient: `${job}@customers.example`, carrier: 'DHL', trackingNumber: `JD0146${job.length}` },
    }),
    acked: (outcome) => outcome === 'sent' || outcome === 'duplicate',
  },
  effects: [
    { target: 'provider', method: 'send', label: 'notification', reply: (args, call) => ({ providerMessageId: `pm-${call.id}` }) },
  ],
  // Locks live under lock:<jobId> (see the repository README); the properties about
  // claims judge only those keys.
  claimKeys: '^lock:',
  limits: { maxLatencyMs: 1000, horizonMs: 120_000 },
  scenarios: [
    {
      name: 'the same job delivered to two workers at once',
      deliveries: [
        { worker: 'blue', job: 'job-7', at: 0 },
        { worker: 'green', job: 'job-7', at: 0 },
      ],
      tests: [
        { name: 'exactly one notification per job in every schedule', property: 'exactlyOncePerJob' },
        { name: 'nobody overwrites or deletes a live lock owned by another worker', property: 'claimsRespected' },
        { name: 'a worker that finishes releases its lock', property: 'claimsReleased' },
      ],
    },
    {
      name: 'two different jobs at once',
      barrier: true,
      deliveries: [
        { worker: 'blue', job: 'job-7', at: 0 },
        { worker: 'green', job: 'job-8', at: 0 },
      ],
      tests: [
        { name: 'two different jobs can be in flight together', property: 'inFlightTogether' },
      ],
    },
    {
      name: 'redelivery after a successful send',
      deliveries: [
        { worker: 'blue', job: 'job-7', at: 0 },
        { worker: 'green', job: 'job-7', after: 0, delayMs: 5_000 },
      ],
      tests: [
        { name: 'a redelivery after success sends nothing', property: 'exactlyOncePerJob' },
      ],
    },
    {
      name: 'a worker crashes right after claiming the job',
      crash: { worker: 'blue' },
      redeliver: { everyMs: 5_000, maxAttempts: 12 },
      deliveries: [
        { worker: 'blue', job: 'job-7', at: 0 },
        { worker: 'green', job: 'job-7', at: 5_000 },
      ],
      tests: [
        { name: 'a worker that crashes after claiming does not block the job forever', property: 'exactlyOncePerJob' },
      ],
    },
  ],
};
