// Hidden tests of the dossier {{slug}}, written by `racecase new --class lease-expiry`.
//
// The harness imports src/worker.js once per simulated worker (each its own
// process) and explores every order in which their store calls and uploads can
// arrive, within the fault model of repo/README.md: store calls complete within
// 50 ms, an upload takes 400-500 ms, the lease is 1 s, a worker may freeze for
// up to 200 ms at any point and for 2 s right after taking a lease.
// hidden_tests/harness/SUITES.md in the racecase repository describes every
// field; challenges/README.md shows each capability with the class scaffold
// that uses it.
//
// Shows: pauses explored at every point of a schedule (`pauses`), a long freeze
// at one point (`stall`), a crash, redelivery, and an effect keyed by record.

const RECORDS = [{ id: 'rec-1' }, { id: 'rec-2' }, { id: 'rec-3' }];
const EVERY_RECORD = RECORDS.map((r) => r.id);

export default {
  subject: {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      store: { $: 'remote', name: 'store', methods: ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'compareAndExpire', 'expire'] },
      partner: { $: 'remote', name: 'partner', methods: ['upload'] },
      clock: { $: 'clock' },
    },
    message: (job) => ({ batchId: job, records: RECORDS }),
    // 'busy' is not acked: the queue delivers the batch again (redeliver).
    acked: (outcome) => outcome !== 'busy',
  },
  // Each record must be uploaded once: uploads are counted by record, not by job.
  effects: [{ target: 'partner', method: 'upload', label: 'upload', key: ([record]) => record.id, latencyMs: [400, 500] }],
  // Leases are claims: claimsRespected judges who renews, overwrites or deletes them.
  claimKeys: '^lease:',
  limits: { maxLatencyMs: 50, maxDelays: 1, maxSchedulesAfterFailure: 20 },
  scenarios: [
    {
      // blue may freeze for 200 ms at any point: the explorer tries every placement.
      name: 'a batch that outlasts its lease, offered to a second worker meanwhile',
      pauses: [{ worker: 'blue', ms: 200 }],
      redeliver: { everyMs: 1_000, maxAttempts: 3 },
      // Renewals and uploads interleave with each timer and with the freeze,
      // and a renewal may answer late: schedules are long and many, so four
      // times the default work (the reference needs about 12 000).
      limits: { maxWork: 32_000 },
      expect: EVERY_RECORD,
      deliveries: [
        { worker: 'blue', job: 'batch-7', at: 0 },
        { worker: 'green', job: 'batch-7', at: 1_100 },
      ],
      tests: [
        { name: 'every record is uploaded exactly once when a batch outlasts its lease', property: 'exactlyOncePerJob' },
        { name: 'nobody renews, takes or deletes a lease another worker holds', property: 'claimsRespected' },
      ],
    },
    {
      // The freeze strikes once, right after blue's first successful write: taking the lease.
      name: 'a worker freezes for 2 s right after taking the lease',
      stall: { worker: 'blue', ms: 2_000 },
      redeliver: { everyMs: 1_000, maxAttempts: 3 },
      expect: EVERY_RECORD,
      deliveries: [
        { worker: 'blue', job: 'batch-7', at: 0 },
        { worker: 'green', job: 'batch-7', at: 1_100 },
      ],
      tests: [
        { name: 'every record is uploaded exactly once after a worker froze past its lease', property: 'exactlyOncePerJob' },
        { name: 'a worker that froze past its lease leaves the new holder\'s lease alone', property: 'claimsRespected' },
      ],
    },
    {
      name: 'a worker dies right after taking the lease',
      crash: { worker: 'blue' },
      redeliver: { everyMs: 1_000, maxAttempts: 5 },
      expect: EVERY_RECORD,
      deliveries: [
        { worker: 'blue', job: 'batch-7', at: 0 },
        { worker: 'green', job: 'batch-7', at: 500 },
      ],
      tests: [{ name: 'the batch of a worker that died is resumed within 5 s', property: 'exactlyOncePerJob' }],
    },
  ],
};
