// Why a schedule could not finish, in the learner's terms: a deadlock cycle, a
// barrier never met, or work waiting on something the harness cannot see.

/**
 * Describes why `world` cannot go on, and adds the waiting calls to its trace.
 * @param {import('./world.mjs').World} world
 * @returns {{ message: string, steps: object[] }}
 */
export function stuckReason(world) {
  const blocked = world.blocked();
  const waits = blocked.filter((op) => op.target === 'locks' && op.name === 'acquire');
  if (waits.length > 0) {
    const steps = waits.map((op) => world.step(op.worker, 'acquire', op.args[0], `waiting for ${world.locks.holder(op.args[0])}`));
    const cycle = findCycle(world, waits);
    const holds = (worker) => world.locks.held().filter(([, h]) => h === worker).map(([k]) => k).join(', ') || 'nothing';
    const atBarrier = new Set(blocked.filter((op) => op.target !== 'locks').map((op) => op.worker));
    const holderOf = (op) => {
      const holder = world.locks.holder(op.args[0]);
      return atBarrier.has(holder)
        ? `held by ${holder}, which waits at ${world.barrier.target}.${world.barrier.method}() for another job to be in flight at the same time`
        : `held by ${holder}`;
    };
    const describe = (op) => `${op.worker} holds ${holds(op.worker)} and waits for ${op.args[0]} (${holderOf(op)})`;
    return cycle
      ? { message: `deadlock: ${cycle.map(describe).join('; ')}`, steps }
      : { message: `no progress: ${waits.map(describe).join('; ')}`, steps };
  }
  if (blocked.length > 0 && !world.barrierMet) {
    return {
      message: `${blocked.map((op) => `${op.worker} waits in ${op.target}.${op.name}() for ${op.job}`).join('; ')}, `
        + 'but no other job ever reached the same step at the same time: two different jobs were never in flight together',
      steps: [],
    };
  }
  const waiting = world.deliveries.filter((d) => d.state === 'running' && !world.crashed.has(d.worker));
  if (waiting.length > 0) {
    return {
      message: `${waiting.map((d) => `${d.worker}'s handling of ${d.job}`).join(' and ')} never finished, `
        + 'and nothing it could wait for is pending (a deadlock, or async work the harness cannot see, such as real I/O)',
      steps: [],
    };
  }
  const never = world.deliveries.filter((d) => d.state !== 'done' && !world.crashed.has(d.worker));
  return {
    message: `${never.map((d) => `${d.job} (${d.worker})`).join(', ')} never completed within ${world.limits.horizonMs / 1000} s`,
    steps: [],
  };
}

/** The waits that form a cycle of workers each waiting for the next one's lock. */
function findCycle(world, waits) {
  const waitOf = new Map(waits.map((op) => [op.worker, op]));
  for (const start of waits) {
    const path = [];
    let op = start;
    while (op && !path.includes(op)) {
      path.push(op);
      op = waitOf.get(world.locks.holder(op.args[0]));
    }
    if (op) return path.slice(path.indexOf(op));
  }
  return null;
}
