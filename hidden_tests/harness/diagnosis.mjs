// Why a schedule could not finish, in the learner's terms: a deadlock cycle, a
// barrier never met, or work waiting on something the harness cannot see.

import { lockOwner } from './calls.mjs';
import { ownerName, sameOwner } from './locks.mjs';

/**
 * Describes why `world` cannot go on, and adds the waiting calls to its trace.
 * @param {import('./world.mjs').World} world
 * @returns {{ message: string, steps: object[] }}
 */
export function stuckReason(world) {
  const blocked = world.blocked();
  const waits = blocked.filter((op) => op.target === 'locks' && op.name === 'acquire');
  if (waits.length > 0) {
    const name = (owner) => ownerName(owner, world.deliveries);
    const steps = waits.map((op) => world.step(op.worker, 'acquire', op.args[0], `waiting for ${name(world.locks.holder(op.args[0]))}`));
    const cycle = findCycle(world, waits);
    const holds = (owner) => world.locks.held().filter(([, h]) => sameOwner(h, owner)).map(([k]) => k).join(', ') || 'nothing';
    const atBarrier = new Set(blocked.filter((op) => op.target !== 'locks').map((op) => op.worker));
    const holderOf = (op) => {
      const holder = world.locks.holder(op.args[0]);
      return atBarrier.has(holder.worker)
        ? `held by ${name(holder)}, which waits at ${world.barrier.target}.${world.barrier.method}() for another job to be in flight at the same time`
        : `held by ${name(holder)}`;
    };
    const describe = (op) => {
      const owner = lockOwner(world, op);
      return `${name(owner)} holds ${holds(owner)} and waits for ${op.args[0]} (${holderOf(op)})`;
    };
    return cycle
      ? { message: `deadlock: ${cycle.map(describe).join('; ')}`, steps }
      : { message: `no progress: ${waits.map(describe).join('; ')}`, steps };
  }
  if (blocked.length > 0 && !world.barrierMet) {
    // A job that ended never waited at the barrier: it would still be waiting there.
    const waitingJobs = new Set(blocked.map((op) => op.job));
    const ended = world.deliveries.filter((d) => d.state === 'done' && !waitingJobs.has(d.job))
      .map((d) => `${d.job} (${d.worker}) ended with ${JSON.stringify(d.outcome ?? 'an error')} before reaching it`);
    return {
      message: `${blocked.map((op) => `${op.worker} waits in ${op.target}.${op.name}() for ${op.job}`).join('; ')}, `
        + `but no other job ever reached the same step at the same time${ended.length > 0 ? ` (${ended.join('; ')})` : ''}: `
        + 'two different jobs were never in flight together',
      steps: [],
    };
  }
  const waiting = world.deliveries.filter((d) => d.state === 'running' && !world.crashed.has(d.worker));
  const next = nextPastHorizon(world);
  if (waiting.length > 0 && next) {
    return {
      message: `${waiting.map((d) => `${d.worker}'s handling of ${d.job}`).join(' and ')} had not finished when virtual time reached `
        + `${world.limits.horizonMs / 1000} s, the longest this scenario runs: it was still waiting for ${next} `
        + '(a retry or back-off loop that keeps losing, or a wait longer than the fault model allows)',
      steps: [],
    };
  }
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

/**
 * What a worker still has scheduled past the horizon, the earliest first, in
 * words (its timer or call and when it was due), or null when nothing is.
 */
function nextPastHorizon(world) {
  const live = (worker) => !world.crashed.has(worker);
  const later = [
    ...[...world.timers.values()].filter((t) => live(t.worker)).map((t) => ({ at: t.due, what: `a timer of ${t.worker}` })),
    ...world.pending.filter((op) => live(op.worker) && op.readyAt > world.now)
      .map((op) => ({ at: op.readyAt, what: `${op.worker}'s ${op.target}.${op.name}() to answer` })),
    ...world.held.filter((h) => live(h.worker) && h.at > world.now).map((h) => ({ at: h.at, what: `a late answer to ${h.worker}` })),
  ].filter((l) => l.at > world.limits.horizonMs).sort((a, b) => a.at - b.at);
  return later.length > 0 ? `${later[0].what}, due at ${later[0].at} ms` : null;
}

/** The waits that form a cycle of requests each waiting for the next one's lock. */
function findCycle(world, waits) {
  const waitOf = (owner) => waits.find((op) => sameOwner(lockOwner(world, op), owner));
  for (const start of waits) {
    const path = [];
    let op = start;
    while (op && !path.includes(op)) {
      path.push(op);
      op = waitOf(world.locks.holder(op.args[0]));
    }
    if (op) return path.slice(path.indexOf(op));
  }
  return null;
}
