// Hidden tests of the dossier {{slug}}, written by `racecase new --class write-skew`.
//
// The harness imports src/worker.js once per simulated worker (each its own
// process) and explores every order in which their database calls can arrive,
// within the fault model of repo/README.md. hidden_tests/harness/SUITES.md in
// the racecase repository describes every field; challenges/README.md shows
// each capability with the class scaffold that uses it.
//
// Shows: services.transactional() from the service kit, a database with
// snapshot and serializable transactions whose commits it refuses on conflict;
// a scenario that brings its own database (other rows); and a property over
// the committed tables.

const PROJECT = 'proj-1';
const owner = (user) => ({ id: `${user}@${PROJECT}`, project: PROJECT, user, role: 'owner' });

/** A database whose members table holds these owners of the project. */
const withOwners = (services, ...users) => services.transactional({ tables: { members: { rows: users.map(owner) } } });

/** The project still has an owner once every request is handled. */
const ownerRemains = {
  end(world) {
    const owners = [...world.services.state('db').committed.members.values()].filter((m) => m.project === PROJECT && m.role === 'owner');
    if (owners.length > 0) return;
    const left = world.deliveries.map((d) => `${d.job.replace('step-down-', '')} (${d.outcome})`).join(' and ');
    world.violate('ownerRemains', `${PROJECT} has no owner left: ${left} each stepped down on a snapshot that still showed the other as owner`,
      world.trace.filter((s) => s.service === 'db' && s.operation === 'commit'));
  },
};

export default ({ services }) => ({
  subject: {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: {
      workerId: { $: 'worker' },
      db: { $: 'remote', name: 'db', methods: ['begin', 'select', 'update', 'commit', 'rollback'] },
    },
    message: (job) => ({ project: PROJECT, user: job.replace('step-down-', '') }),
    acked: (outcome) => outcome === 'left' || outcome === 'last-owner',
  },
  services: { db: withOwners(services, 'alice', 'bob') },
  properties: { ownerRemains },
  // A step-down is a transaction of several calls: schedules are long, so twice the default work.
  limits: { maxLatencyMs: 50, maxSchedulesAfterFailure: 20, maxWork: 8000 },
  scenarios: [
    {
      name: 'both owners of a project step down at once',
      deliveries: [
        { worker: 'blue', job: 'step-down-alice', at: 0 },
        { worker: 'green', job: 'step-down-bob', at: 0 },
      ],
      tests: [
        { name: 'a project keeps an owner when its owners step down at once', property: 'ownerRemains' },
        { name: 'every step-down request is answered', property: 'allDeliveriesAcked' },
      ],
    },
    {
      // This scenario's database has a third owner: both may step down.
      name: 'two of three owners step down at once',
      services: { db: withOwners(services, 'alice', 'bob', 'carol') },
      deliveries: [
        { worker: 'blue', job: 'step-down-alice', at: 0 },
        { worker: 'green', job: 'step-down-bob', at: 0 },
      ],
      tests: [{ name: 'two owners may step down at once while a third stays', property: 'allDeliveriesAcked' }],
    },
  ],
});
