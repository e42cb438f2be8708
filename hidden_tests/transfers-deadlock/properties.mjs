// The properties of the transfers-deadlock suite: what must hold of the ledger
// and its locks in every schedule.

import { OPENING, TRANSFERS, euros } from './ledger.mjs';

/** Per schedule: every store call, in arrival order, with the transfer that made it. */
const histories = new WeakMap();

function historyOf(world) {
  let history = histories.get(world);
  if (!history) {
    history = [];
    histories.set(world, history);
  }
  return history;
}

/**
 * No transfer sees another one half-done: the store calls of every schedule can
 * be explained by running the transfers one after the other (conflict
 * serialisability). A transfer that read one account before another
 * transfer's write and a second account after that transfer's write saw it
 * half-applied: a debit without its credit.
 */
export const serialisable = {
  onStore(world, op, before, value, step) {
    if (typeof op.args?.[0] !== 'string') return;
    // Both attempts of a retried transfer are one transfer: the job names it.
    const job = op.job || op.worker;
    historyOf(world).push({ job, key: op.args[0], write: op.name !== 'get', name: op.name, step });
  },
  end(world) {
    const history = historyOf(world);
    // edges.get(a).get(b): the first pair of conflicting calls that puts a before b.
    const edges = new Map();
    for (let i = 0; i < history.length; i++) {
      for (let j = i + 1; j < history.length; j++) {
        const a = history[i];
        const b = history[j];
        if (a.job === b.job || a.key !== b.key || (!a.write && !b.write)) continue;
        if (!edges.has(a.job)) edges.set(a.job, new Map());
        if (!edges.get(a.job).has(b.job)) edges.get(a.job).set(b.job, [a, b]);
      }
    }
    for (const [first, after] of edges) {
      for (const [second, [a1, b1]] of after) {
        const back = edges.get(second)?.get(first);
        if (!back) continue;
        const [a2, b2] = back;
        world.violate('serialisable',
          `${first} and ${second} each saw the other half-done: ${first}'s ${a1.name}(${a1.key}) came before `
          + `${second}'s ${b1.name}(${b1.key}), but ${second}'s ${a2.name}(${a2.key}) came before ${first}'s `
          + `${b2.name}(${b2.key}). No order of running the two transfers one after the other gives these `
          + 'reads and writes: between a debit and its credit the accounts were not locked',
          [a1.step, b1.step, a2.step, b2.step]);
        return;
      }
    }
  },
};

/**
 * Balances are exactly what the transfers that completed add up to: each posted
 * transfer applied once, in full, and nothing else; money is conserved.
 */
export const balancesAddUp = {
  end(world) {
    const expected = { ...OPENING };
    // A transfer that arrived twice moves its money once, however often it says posted.
    const posted = [...new Set(world.deliveries.filter((d) => d.outcome === 'posted').map((d) => d.job))];
    for (const job of posted) {
      const t = TRANSFERS[job];
      expected[t.from] -= t.amountCents;
      expected[t.to] += t.amountCents;
    }
    const writes = historyOf(world).filter((h) => h.write && h.key.startsWith('balance:'));
    for (const [account, cents] of Object.entries(expected)) {
      const raw = world.store.entry(`balance:${account}`, world.now)?.value ?? null;
      const actual = raw === null ? NaN : Number(raw);
      if (actual === cents) continue;
      const total = Object.keys(OPENING)
        .reduce((sum, a) => sum + Number(world.store.entry(`balance:${a}`, world.now)?.value ?? 0), 0);
      const opening = Object.values(OPENING).reduce((sum, c) => sum + c, 0);
      const money = total === opening ? 'the total is unchanged, so another account is off too'
        : `${euros(Math.abs(total - opening))} was ${total > opening ? 'created' : 'lost'} in total`;
      world.violate('balancesAddUp',
        `${account} ends at ${raw === null ? 'nothing' : euros(actual)}, but it opened at ${euros(OPENING[account])} and the `
        + `posted transfers (${posted.join(', ') || 'none'}) make it ${euros(cents)}; ${money}. `
        + 'A balance write was based on a value another transfer had already changed, or a transfer was applied in part',
        writes.filter((h) => h.key === `balance:${account}`).map((h) => h.step));
      return;
    }
  },
};

/**
 * No account lock outlives its transfer: once every transfer has answered, no
 * pod holds one. A lock granted to a request that had already answered (an
 * acquire it stopped waiting for but left queued at ledger-locks) is never
 * released, and every later transfer on that account waits for it for ever.
 * An acquire still queued at the end waits for a lock someone holds, so it is
 * caught by the same check.
 */
export const locksReleased = {
  end(world) {
    const holders = new Map();
    for (const step of world.trace) {
      if (step.service !== 'locks') continue;
      // A call that arrived late says so after its result ("released (in flight since …)").
      if (step.operation === 'release' && step.result.startsWith('released')) holders.delete(step.key);
      else if (step.operation !== 'release' && step.result.startsWith('acquired')) holders.set(step.key, step);
    }
    for (const [key, taken] of holders) {
      // Its own transfer's answer: a pod answers other transfers meanwhile.
      const answered = world.trace.find((s) => s.operation === 'handle' && s.worker === taken.worker
        && (!taken.request || s.request === taken.request) && s.step < taken.step);
      const late = answered
        ? `, which ledger-locks granted at ${taken.at} ms although its transfer had answered at ${answered.at} ms (${answered.result})`
        : '';
      world.violate('locksReleased',
        `${taken.worker} still holds ${key} after every transfer answered${late}: nobody will ever release it, so every `
        + 'later transfer on that account waits for ever',
        [taken, answered].filter(Boolean));
      return;
    }
  },
};

/**
 * A retry is answered `duplicate` ("this id was posted before; nothing moved
 * now", README) only once its transfer has its journal entry: an answer given
 * while the first attempt may still be declined tells the customer the money
 * went when it may not.
 */
export const duplicateOnlyOncePosted = {
  end(world) {
    for (const answer of world.trace) {
      if (answer.operation !== 'handle' || !/^returned\b.*\bduplicate\b/.test(answer.result)) continue;
      // A send's step is its trace step.
      if (world.sends.some((s) => s.job === answer.key && s.target === 'journal' && (s.step?.step ?? s.step) < answer.step)) continue;
      world.violate('duplicateOnlyOncePosted',
        `${answer.request ?? answer.key} (${answer.worker}) answered duplicate at ${answer.at} ms, but ${answer.key} had no `
        + 'journal entry yet: "duplicate" says the transfer was posted before, and until it is, its first attempt may '
        + 'still be declined',
        [answer.step]);
      return;
    }
  },
};
