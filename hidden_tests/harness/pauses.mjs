// Process pauses as explored choices: a scenario may let a worker freeze (a long
// GC pause, a stalled disk, a VM migration) at any point of a schedule, for a
// given time or until the leases it holds have run out. The explorer tries
// every placement, within a budget of pauses per schedule (limits.maxPauses),
// and, for a pause until leases ran out, every point of its wake after them.
// The suite check asks each pause for its checks here too (checkPauses).
//
//   pauses: [{ worker: 'outreach-0', ms: 20_000 }, { worker: 'blue', until: 'leases' }]

const PAUSE_FIELDS = ['worker', 'ms', 'until'];

/**
 * Checks a scenario's pauses for the suite check c: their fields, a known worker
 * (checked by worker(name, field)), a length or until: 'leases', and for the latter
 * leases it can see.
 */
export function checkPauses(c, suite, scenario, field, worker) {
  const seesLeases = seesLeasesOf(suite, scenario);
  (scenario.pauses ?? []).forEach((p, j) => {
    const at = `${field}.pauses[${j}]`;
    c.fields(p, PAUSE_FIELDS, at);
    worker(p?.worker, `${at}.worker`);
    if (p?.ms === undefined && p?.until === undefined) c.add(at, 'a pause needs ms (how long) or until: \'leases\'');
    if (p?.ms !== undefined && !(Number.isInteger(p.ms) && p.ms > 0)) c.add(`${at}.ms`, 'must be a whole number of milliseconds > 0');
    if (p?.until !== undefined && p.until !== 'leases') c.add(`${at}.until`, 'the only thing a pause waits for is \'leases\'', 'until: \'leases\'');
    if (p?.until === 'leases' && !seesLeases) {
      c.add(`${at}.until`, 'waits for the worker\'s leases, but the suite names no claimKeys and no service of the scenario keeps leases (leasesOf): '
        + 'no lease is ever seen, so the pause would never wait for a learner\'s lock', 'add claimKeys: the store keys that hold leases (e.g. \'^lock:\'), or a service with leasesOf');
    }
  });
}

/**
 * Whether a pause until: 'leases' can see a lease in this scenario: store keys
 * are claims only under claimKeys, and a service's leases only through its leasesOf.
 */
function seesLeasesOf(suite, scenario) {
  const services = Object.values({ ...suite.services, ...scenario.services });
  return suite.claimKeys !== undefined || services.some((service) => typeof service?.leasesOf === 'function');
}

/** Pause choices on offer now: each pause once per schedule, while the budget lasts. */
export function pauseChoices(world) {
  const specs = world.scenario.pauses ?? [];
  if (world.pausesTaken >= world.limits.maxPauses) return [];
  const choices = [];
  specs.forEach((spec, index) => {
    if (world.pausesUsed.has(index) || !world.awake(spec.worker) || !busy(world, spec.worker)) return;
    choices.push({ id: `pause:${index}`, kind: 'pause', index, spec, worker: spec.worker });
  });
  return choices;
}

/** A worker with something to be interrupted: a delivery running, a call or answer in flight or a timer set. */
function busy(world, worker) {
  return world.deliveries.some((d) => d.worker === worker && d.state === 'running')
    || world.pending.some((op) => op.worker === worker)
    || world.held.some((h) => h.worker === worker)
    || [...world.timers.values()].some((t) => t.worker === worker);
}

/**
 * The leases `worker` holds now: claims it wrote in the store with an expiry,
 * and leases of services that keep them (leasesOf). Each is { key, until, ttlMs },
 * ttlMs being how long the lease was taken or last renewed for (when a service
 * does not say, the time it has left).
 */
function leasesHeld(world, worker) {
  const { now } = world;
  return [
    ...world.store.live(now).filter(([, e]) => e.claim && e.writer === worker && e.expiresAt !== null)
      .map(([key, e]) => ({ key, until: e.expiresAt, ttlMs: e.ttlMs })),
    ...world.services.leasesOf(worker, now),
  ].map((l) => ({ ...l, ttlMs: Number.isFinite(l.ttlMs) && l.ttlMs > 0 ? l.ttlMs : l.until - now }));
}

/**
 * Freezes the worker of a pause choice and says so in the trace.
 *
 * A pause of `ms` ends `ms` later. A pause `until: 'leases'` lasts at least until
 * every lease the worker holds has run out (and at least `ms`, when given); from
 * then on its wake is itself explored: waking it is a choice at every point until
 * two lease lengths after the last lease ran out, when it wakes on its own. So the
 * explorer tries the holder waking right as its lease runs out and after each
 * step another worker takes meanwhile: a competitor that retries at least once a
 * lease length takes the lease over within one, and what it does under that
 * lease ends within the next.
 * @returns {number} the latest virtual time it wakes
 */
export function takePause(world, choice) {
  const { spec, index } = choice;
  world.pausesUsed.add(index);
  world.pausesTaken += 1;
  world.wakeWindows.delete(spec.worker);
  const frozenFor = world.now + Math.max(1, spec.ms ?? 0);
  const leases = spec.until === 'leases' ? leasesHeld(world, spec.worker) : [];
  let until = frozenFor;
  let why = `for ${until - world.now} ms`;
  let when = `it wakes at ${until} ms`;
  if (leases.length > 0) {
    const names = `lease${leases.length > 1 ? 's' : ''} ${leases.map((l) => l.key).join(', ')}`;
    const runOut = Math.max(...leases.map((l) => l.until));
    const from = Math.max(frozenFor, runOut);
    until = Math.max(from, runOut + 2 * Math.max(...leases.map((l) => l.ttlMs)));
    if (from < until) {
      world.wakeWindows.set(spec.worker, from);
      why = `until its ${names} ran out`;
      when = `it wakes between ${from} and ${until} ms: every point in between is explored`;
    } else {
      why = `for ${until - world.now} ms, past its ${names}`;
      when = `it wakes at ${until} ms`;
    }
  }
  world.frozen.set(spec.worker, until);
  world.frozenSince.set(spec.worker, world.now);
  world.step(spec.worker, 'pause', '', `the process freezes ${why} (a GC pause or a stalled disk); ${when}`);
  return until;
}

/**
 * Where the clock must stop for the pauses' wake windows: each window's start,
 * so that waking right when a worker's leases ran out is a point of its own.
 */
export function wakeWindowStops(world) {
  return [...world.wakeWindows.entries()].filter(([worker, from]) => from > world.now && !world.crashed.has(worker))
    .map(([worker, from]) => ({ id: `leases-out:${worker}`, kind: 'clock', worker, due: from }));
}

/** Wake choices on offer now: a worker in its wake window may wake at this point. */
export function wakeChoices(world) {
  return [...world.wakeWindows.entries()]
    .filter(([worker, from]) => from <= world.now && world.frozen.get(worker) > world.now && !world.crashed.has(worker))
    .map(([worker]) => ({ id: `wake-now:${worker}`, kind: 'wake', worker }));
}

/** Wakes a worker in its wake window now. */
export function takeWake(world, choice) {
  world.wakeWindows.delete(choice.worker);
  world.frozen.set(choice.worker, world.now);
  world.step(choice.worker, 'wake', '', 'the process runs again');
  sendOnWake(world, choice.worker);
}

/**
 * Sends the calls of a worker that wakes now: a frozen process sends nothing, so
 * a call it made the moment it froze leaves when it wakes and takes its whole
 * latency from then (a read sees nothing older than that). A call made earlier
 * had left: it keeps its window (and, as a frozen worker's calls wait for it,
 * arrives once it is awake).
 */
export function sendOnWake(world, worker) {
  const since = world.frozenSince.get(worker);
  for (const op of world.pending) {
    if (op.worker !== worker || op.issuedAt !== since) continue;
    const shift = world.now - op.issuedAt;
    op.issuedAt = world.now;
    op.soonest += shift;
    op.readyAt += shift;
    op.deadline += shift;
  }
}
