// Process pauses as explored choices: a scenario may let a worker freeze (a long
// GC pause, a stalled disk, a VM migration) at any point of a schedule, for a
// given time or until the leases it holds have run out. The explorer tries
// every placement, within a budget of pauses per schedule (limits.maxPauses).
//
//   pauses: [{ worker: 'outreach-0', ms: 20_000 }, { worker: 'blue', until: 'leases' }]

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

/** A worker with something to be interrupted: a delivery running, a call in flight or a timer set. */
function busy(world, worker) {
  return world.deliveries.some((d) => d.worker === worker && d.state === 'running')
    || world.pending.some((op) => op.worker === worker)
    || [...world.timers.values()].some((t) => t.worker === worker);
}

/**
 * Freezes the worker of a pause choice and says so in the trace.
 * @returns {number} the virtual time it wakes
 */
export function takePause(world, choice) {
  const { spec, index } = choice;
  world.pausesUsed.add(index);
  world.pausesTaken += 1;
  let until = world.now + Math.max(1, spec.ms ?? 0);
  let why = `for ${until - world.now} ms`;
  if (spec.until === 'leases') {
    const leases = [
      ...world.store.live(world.now).filter(([, e]) => e.claim && e.writer === spec.worker && e.expiresAt !== null)
        .map(([key, e]) => ({ key, until: e.expiresAt })),
      ...world.services.leasesOf(spec.worker, world.now),
    ];
    if (leases.length > 0) {
      until = Math.max(until, ...leases.map((l) => l.until + 1));
      why = `until its lease${leases.length > 1 ? 's' : ''} ${leases.map((l) => l.key).join(', ')} ran out`;
    }
  }
  world.frozen.set(spec.worker, until);
  world.step(spec.worker, 'pause', '', `the process freezes ${why} (a GC pause or a stalled disk); it wakes at ${until} ms`);
  return until;
}
