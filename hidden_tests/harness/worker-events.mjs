// Applies what a worker reported after a command: the calls it made, the timers
// it set or cleared, the deliveries it finished, the errors nobody caught. Each
// call and timer is attributed to the delivery (request) whose code made it.

import { clipMessage, show, learnerText } from './describe.mjs';
import { WorkerFailure } from './worker-link.mjs';
import { effectOf } from './calls.mjs';
import { requestLabel } from './trace.mjs';
import { watchedExpiry } from './expiries.mjs';
import { leaseCall } from './late-answers.mjs';
import { startFollowers } from './deliveries.mjs';
import { lateAnswer } from './caller.mjs';

/**
 * @param {import('./world.mjs').World} world
 * @param {string} worker
 * @param {object[]} events checked by worker-protocol.mjs
 */
export function absorbEvents(world, worker, events) {
  for (const event of events) {
    switch (event.k) {
      case 'op':
        addCall(world, worker, event);
        break;
      case 'timer': {
        const call = world.requestOf(worker, event.call);
        world.countFor(world.calls.get(call), 'timers');
        world.timers.set(`${worker}.${event.id}`, { worker, localId: event.id, due: world.now + event.delay, delay: event.delay, call });
        break;
      }
      case 'clear':
        world.timers.delete(`${worker}.${event.id}`);
        break;
      case 'settled':
        settle(world, event);
        break;
      case 'spawned':
        if (!event.ok) world.errors.push(`the worker could not start: ${learnerText(event.error)}`);
        break;
      case 'uncaught':
        world.step(worker, 'uncaught', '', clipMessage(learnerText(event.error)));
        break;
      case 'exit': {
        const d = world.deliveries.find((x) => x.worker === worker && x.state === 'running');
        throw new WorkerFailure('error', `${worker} called process.exit(${event.code})${d ? ` while handling ${d.job}` : ''}: `
          + 'a worker must finish its work and return, not end its process');
      }
      case 'spin':
        throw new WorkerFailure('error', `${worker}'s code kept scheduling setImmediate() callbacks and never became idle`);
      case 'stray':
        throw new WorkerFailure('error', `${worker}'s code ran outside any step the harness controls (work it cannot see, such as real I/O)`);
      default:
        break;
    }
  }
  checkBarrier(world);
}

function addCall(world, worker, event) {
  const call = world.requestOf(worker, event.call);
  const delivery = world.calls.get(call);
  const { min, max } = latencyOf(world, event);
  const { id: localId, target, name, args, site } = event;
  const op = {
    id: `${worker}.${localId}`, localId, worker, target, name, args, site, call,
    issuedAt: world.now, readyAt: world.now + min, deadline: world.now + max, job: delivery?.job ?? '',
    soonest: world.now + min, // the earliest moment it may take effect (stale-reads.mjs)
  };
  // At the slow pace a call lands at its deadline, except one that starts or
  // renews a lease: that lands as soon as it may and answers at its deadline.
  if (world.slowFor(worker) && !leaseCall(op, world.services)) op.readyAt = op.deadline;
  op.watches = watchedExpiry(world, op);
  world.pending.push(op);
  world.countFor(delivery, 'calls');
}

/** How long a call may stay in flight: its effect's or service's latency, else the scenario's. */
function latencyOf(world, op) {
  const [min, max] = effectOf(world, op)?.latencyMs ?? world.services.latency(op.target) ?? [0, world.limits.maxLatencyMs];
  return { min, max: Math.max(min, max) };
}

function settle(world, event) {
  const request = world.calls.get(event.callId);
  if (!request || world.crashed.has(request.worker)) return;
  const d = world.deliveries[request.index];
  const outcome = event.ok ? event.value : clipMessage(`threw ${learnerText(event.error)}`);
  const result = event.ok ? `returned ${show(event.value)}` : outcome;
  const late = lateAnswer(world, d, request, result);
  d.open.delete(request.attempt);
  if (late) return;
  world.step(d.worker, 'handle', d.job, result, { request: requestLabel(request) });
  const acked = event.ok && world.suite.subject.acked(event.value);
  const retry = world.scenario.redeliver;
  d.outcome = outcome;
  d.acked = acked;
  if (!acked && retry && d.attempt < (d.maxAttempts ?? retry.maxAttempts)) {
    d.state = 'waiting';
    d.due = world.now + retry.everyMs;
    return;
  }
  d.state = 'done';
  startFollowers(world, d);
}

/** Marks the barrier met once two different jobs are at its effect at the same time. */
function checkBarrier(world) {
  if (world.barrierMet) return;
  const { target, method } = world.barrier;
  const jobs = new Set(world.pending
    .filter((op) => op.target === target && op.name === method && !world.crashed.has(op.worker))
    .map((op) => op.job));
  if (jobs.size >= 2) world.barrierMet = true;
}
