// Hidden tests of the dossier {{slug}}, written by `racecase new --class fencing`.
//
// The harness imports src/worker.js once per simulated worker (each its own
// process) and explores every order in which their calls to the lease service
// and the storage can arrive, within the fault model of repo/README.md: calls
// complete within 50 ms, and a worker may freeze for 30 s at any point.
// hidden_tests/harness/SUITES.md in the racecase repository describes every
// field; challenges/README.md shows each capability with the class scaffold
// that uses it.
//
// Shows: stateful services from the kit (the suite exports a function of
// `services`): leases that grant fencing tokens, and storage that refuses a
// write fenced lower than one it accepted; a pause explored at every point; and
// properties that read the services' state.

const DAY = '2026-05-01';
const REPORT = `reports/${DAY}`;

/** The index, among the lease grants, of the lease a worker held when it wrote. */
function leaseOf(grants, write) {
  return grants.findLastIndex((g) => g.worker === write.worker && g.at <= write.at);
}

/** No write is accepted after a write made under a newer lease: the older lease had run out. */
const noStaleWrite = {
  end(world) {
    const { grants } = world.services.state('leases');
    const writes = world.services.state('storage').accepted.filter((w) => w.key === REPORT);
    for (let i = 1; i < writes.length; i++) {
      const [before, after] = [writes[i - 1], writes[i]];
      if (leaseOf(grants, after) >= leaseOf(grants, before)) continue;
      world.violate('noStaleWrite',
        `${after.worker} wrote ${REPORT} at ${after.at} ms under a lease that had run out: ${before.worker} had taken the lease `
        + `after it and written at ${before.at} ms, and the storage accepted the older writer's report over the newer one`);
      return;
    }
  },
};

/** The report exists once every delivery is done. */
const reportWritten = {
  end(world) {
    if (world.services.state('storage').data[REPORT] === undefined) world.violate('reportWritten', `${REPORT} was never written`);
  },
};

export default ({ services }) => ({
  subject: {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      leases: { $: 'remote', name: 'leases', methods: ['acquire', 'release'] },
      storage: { $: 'remote', name: 'storage', methods: ['read', 'write'] },
    },
    message: () => ({ day: DAY }),
    acked: (outcome) => outcome !== 'busy',
  },
  services: { leases: services.leases(), storage: services.fencedStorage() },
  properties: { noStaleWrite, reportWritten },
  limits: { maxLatencyMs: 50, maxDelays: 0, maxSchedulesAfterFailure: 20 },
  scenarios: [
    {
      // blue may freeze for 30 s at any point: between taking its lease and
      // writing, the lease runs out and green takes it over.
      name: 'a worker freezes for 30 s while it builds the report',
      pauses: [{ worker: 'blue', ms: 30_000 }],
      redeliver: { everyMs: 2_000, maxAttempts: 20 },
      deliveries: [
        { worker: 'blue', job: 'report', at: 0 },
        { worker: 'green', job: 'report', at: 1_000 },
      ],
      tests: [
        { name: 'no report from a worker whose lease ran out overwrites a newer one', property: 'noStaleWrite' },
        { name: 'the report is written', property: 'reportWritten' },
      ],
    },
  ],
});
