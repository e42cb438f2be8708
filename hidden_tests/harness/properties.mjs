// The properties a hidden test can demand of every schedule. Each names what it
// checks in words a learner understands; violations highlight the steps at fault.

const WRITES = new Set(['set', 'setIfAbsent', 'compareAndDelete', 'delete']);

/** Exactly one side effect per job: not zero, not two. */
const exactlyOncePerJob = {
  end(world) {
    for (const job of new Set(world.deliveries.map((d) => d.job))) {
      const sends = world.sends.filter((s) => s.job === job);
      if (sends.length === 1) continue;
      if (sends.length === 0) {
        const holders = world.store.live(world.now).filter(([, e]) => e.claim && world.crashed.has(e.writer));
        const why = holders.length > 0
          ? `: ${holders.map(([key, e]) => `${key} is still held by ${e.writer}, which crashed at ${world.crashed.get(e.writer)} ms`).join('; ')}`
          : '';
        world.violate('exactlyOncePerJob', `${job} was never notified${why}`);
      } else {
        world.violate('exactlyOncePerJob',
          `${job} was notified ${sends.length} times (by ${sends.map((s) => s.worker).join(' and ')}); it must be exactly once`,
          sends.map((s) => s.step));
      }
      return;
    }
  },
};

/** Nobody overwrites or deletes a live claim (lock, lease) written by another worker. */
const claimsRespected = {
  onStore(world, op, before, value, step) {
    if (!WRITES.has(op.name) || !before || !before.claim || before.writer === op.worker) return;
    if (op.name === 'setIfAbsent' || (op.name === 'compareAndDelete' && value === false)) return;
    const until = before.expiresAt === null ? 'with no expiry' : `until ${before.expiresAt} ms`;
    const verb = op.name === 'set' ? 'overwrote' : 'deleted';
    world.violate('claimsRespected',
      `${op.worker} ${verb} ${op.args[0]} while ${before.writer}'s claim on it was live (${until})`, [step]);
  },
};

/** A worker that finished its work holds no claim any more. */
const claimsReleased = {
  end(world) {
    for (const [key, entry] of world.store.live(world.now)) {
      if (!entry.claim || world.crashed.has(entry.writer)) continue;
      const until = entry.expiresAt === null ? 'never expires' : `would only expire at ${entry.expiresAt} ms`;
      world.violate('claimsReleased',
        `${entry.writer} finished its work but left ${key} held (it ${until}, blocking every redelivery until then)`);
      return;
    }
  },
};

/** Two different jobs reached the side effect at the same time. */
const inFlightTogether = {
  end(world) {
    if (!world.barrierMet) {
      world.violate('inFlightTogether', 'two different jobs were never in the notification step at the same time');
    }
  },
};

/** Every property a suite may name. */
export const PROPERTIES = { exactlyOncePerJob, claimsRespected, claimsReleased, inFlightTogether };
