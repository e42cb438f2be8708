// The properties a hidden test can demand of every schedule. Each names what it
// checks in words a learner understands; violations highlight the steps at fault.

/** Store operations that change a key when they succeed. */
const WRITES = new Set(['set', 'setIfAbsent', 'compareAndSet', 'compareAndDelete', 'compareAndExpire', 'expire', 'incrBy', 'delete']);

/** The effect keys a scenario expects exactly once: its `expect`, or its jobs. */
function expectedKeys(world) {
  return world.scenario.expect ?? [...new Set(world.deliveries.map((d) => d.job))];
}

/** What one counted call of `target.method` is called: its effect's or its service's label, e.g. "notification". */
function callLabel(world, target, method) {
  const effect = world.effects.find((e) => e.target === target && e.method === method);
  if (effect) return effect.label ?? `${method}() call`;
  return world.services.label(target) ?? `${target}.${method}() call`;
}

/**
 * What the side effect counted under `key` is called. When nothing was counted
 * under it: the first effect's label, else the first service's that names its
 * recorded calls.
 */
function labelFor(world, key) {
  const sent = world.sends.find((s) => s.key === key);
  if (sent) return callLabel(world, sent.target, sent.method);
  const [effect] = world.effects;
  if (effect) return callLabel(world, effect.target, effect.method);
  return world.services.labels()[0] ?? 'effect';
}

/** Exactly one side effect per expected key: not zero, not two. */
const exactlyOncePerJob = {
  end(world) {
    for (const key of expectedKeys(world)) {
      const sends = world.sends.filter((s) => s.key === key);
      if (sends.length === 1) continue;
      const label = labelFor(world, key);
      if (sends.length === 0) {
        // Claims in the store and leases of services that a crashed worker still holds.
        const holders = [
          ...world.store.live(world.now).filter(([, e]) => e.claim && world.crashed.has(e.writer)).map(([k, e]) => [k, e.writer]),
          ...[...world.crashed.keys()].flatMap((w) => world.services.leasesOf(w, world.now).map((lease) => [lease.key, w])),
        ];
        // Deliveries of the job acknowledged without the effect: the queue will not ask again.
        const acked = world.deliveries.filter((d) => d.job === key && d.acked)
          .sort((a, b) => a.messageAttempt - b.messageAttempt)
          .map((d) => `${d.worker} acknowledged delivery ${d.messageAttempt} with ${JSON.stringify(d.outcome)}, so the queue will not deliver it again`);
        const reasons = [...acked, ...holders.map(([k, w]) => `${k} is still held by ${w}, which crashed at ${world.crashed.get(w)} ms`)];
        const why = reasons.length > 0 ? `: ${reasons.join('; ')}` : '';
        world.violate('exactlyOncePerJob', `${key} never got its ${label}${why}`);
      } else {
        world.violate('exactlyOncePerJob',
          `${key} got ${sends.length} ${plural(label)} (by ${sends.map((s) => s.worker).join(' and ')}); it must get exactly one`,
          sends.map((s) => s.step));
      }
      return;
    }
  },
};

/** Nobody overwrites, deletes or renews a live claim (lock, lease) another worker wrote. */
const claimsRespected = {
  onStore(world, op, before, value, step) {
    if (!WRITES.has(op.name) || !before || !before.claim || !before.writer || before.writer === op.worker) return;
    if (value === false) return;
    const until = before.expiresAt === null ? 'with no expiry' : `until ${before.expiresAt} ms`;
    const verb = { delete: 'deleted', compareAndDelete: 'deleted', expire: 'renewed', compareAndExpire: 'renewed' }[op.name] ?? 'overwrote';
    world.violate('claimsRespected',
      `${op.worker} ${verb} ${op.args[0]} while ${before.writer}'s claim on it was live (${until})`, [step]);
  },
};

/** A worker that finished its work holds no claim any more. */
const claimsReleased = {
  end(world) {
    for (const [key, entry] of world.store.live(world.now)) {
      if (!entry.claim || !entry.writer || world.crashed.has(entry.writer)) continue;
      const until = entry.expiresAt === null ? 'never expires' : `would only expire at ${entry.expiresAt} ms`;
      world.violate('claimsReleased',
        `${entry.writer} finished its work but left ${key} held (it ${until}, blocking every redelivery until then)`);
      return;
    }
  },
};

/** Two different jobs reached the barrier's effect at the same time. */
const inFlightTogether = {
  end(world) {
    if (!world.barrierMet) {
      world.violate('inFlightTogether', `two different jobs were never in ${world.barrier.target}.${world.barrier.method}() at the same time`);
    }
  },
};

/** Every delivery ended acknowledged: no job was dropped or left failing. */
const allDeliveriesAcked = {
  end(world) {
    for (const d of world.deliveries) {
      if (world.crashed.has(d.worker) || d.acked) continue;
      world.violate('allDeliveriesAcked', `${d.job} (${d.worker}) ended with ${JSON.stringify(d.outcome)} and was never completed`);
      return;
    }
  },
};

/**
 * No delivery keeps calling without end: one that makes more than
 * limits.maxCallsPerDelivery store and service calls is going round (a
 * livelock, or a retry loop that never gives up). The world checks it as calls
 * arrive and ends the schedule there, with the trace of the rounds.
 */
const boundedCalls = { perCall: true };

/** When a call of the trace was made: when it was issued, else when it took effect. */
const issuedAt = (step) => step.issued ?? step.at;

/**
 * No request polls a remote faster than the fault model allows: a call made
 * the moment one of the request's timers fired (it slept, then looked again)
 * comes at least the remote's min_poll_interval after the request's previous
 * call to that remote. Calls made straight after an answer are not polls.
 */
const pacedPolls = {
  end(world) {
    const intervals = world.suite.pollIntervals;
    const byRequest = new Map();
    for (const step of world.trace) {
      if (!step.request || !(step.operation === 'timer' || intervals[step.service] !== undefined)) continue;
      byRequest.set(step.request, [...(byRequest.get(step.request) ?? []), step]);
    }
    for (const [request, steps] of byRequest) {
      const fired = steps.filter((s) => s.operation === 'timer');
      const calls = steps.filter((s) => s.operation !== 'timer').sort((a, b) => issuedAt(a) - issuedAt(b) || a.step - b.step);
      for (const [i, call] of calls.entries()) {
        const before = calls.slice(0, i).findLast((c) => c.service === call.service);
        const every = intervals[call.service];
        if (!before || issuedAt(call) - issuedAt(before) >= every) continue;
        const timer = fired.find((t) => t.at === issuedAt(call) && t.at > issuedAt(before));
        if (!timer) continue;
        world.violate('pacedPolls', `${request} called ${call.service} at ${issuedAt(before)} ms, waited for a timer and called it again at `
          + `${issuedAt(call)} ms, ${issuedAt(call) - issuedAt(before)} ms later: a request that waits for something there may call `
          + `${call.service} at most every ${every} ms`, [before, timer, call]);
        return;
      }
    }
  },
};

/** The plural of an effect's label: "journal entry", "journal entries". */
function plural(label) {
  return /[^aeiou]y$/.test(label) ? `${label.slice(0, -1)}ies` : `${label}s`;
}

/** Every property a suite may name without defining it. */
export const PROPERTIES = { exactlyOncePerJob, claimsRespected, claimsReleased, inFlightTogether, allDeliveriesAcked, boundedCalls, pacedPolls };
