// A fixture suite for the harness tests: a stalled worker loses its shard's lease.
export default {
  subject: {
    module: 'src/batch.js',
    factory: 'createBatch',
    method: 'run',
    deps: {
      workerId: { $: 'worker' },
      store: { $: 'remote', name: 'store', methods: ['get', 'setIfAbsent', 'compareAndDelete', 'compareAndExpire', 'expire'] },
      mailer: { $: 'remote', name: 'mailer', methods: ['send'] },
      config: { leaseMs: 900 },
    },
    message: (job) => ({ shard: job, candidates: ['c1', 'c2'] }),
    acked: (outcome) => outcome === 'done',
  },
  effects: [{ target: 'mailer', method: 'send', label: 'e-mail', key: ([mail]) => mail.candidate, latencyMs: [300, 400] }],
  claimKeys: '^lock:',
  limits: { maxLatencyMs: 100, maxDelays: 0, maxWork: 24_000 },
  scenarios: [
    {
      name: 'the first worker stalls past its lease',
      stall: { worker: 'blue', ms: 1400 },
      redeliver: { everyMs: 1000, maxAttempts: 4 },
      expect: ['c1', 'c2'],
      deliveries: [{ worker: 'blue', job: 'shard-1', at: 0 }, { worker: 'green', job: 'shard-1', at: 1000 }],
      tests: [
        { name: 'every candidate gets exactly one e-mail', property: 'exactlyOncePerJob' },
        { name: 'nobody renews or takes a lease it lost', property: 'claimsRespected' },
      ],
    },
  ],
};
