// A small world for the tests: two outreach workers, one shared store, the
// e-mail provider and the enrichment API, all on one virtual clock.
//
// Nothing here uses real time. Every store call, enrichment lookup and send
// is a sleep on the virtual clock (a round trip), and the clock only moves
// when every worker is waiting on it, to the next thing due. Runs are
// therefore the same every time.
//
// A worker can be frozen, as by a long GC pause or a network partition: its
// timers and calls simply do not fire until the freeze ends, and then resume
// as if no time had passed for it. The store's clock, and everyone else's,
// keeps running.

import { setImmediate as turn } from 'node:timers/promises';
import { createMemoryStore } from '../src/store/memory-store.js';

const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'compareAndExpire', 'expire', 'delete'];
const CLAIM_WRITES = new Set(['set', 'setIfAbsent']);

/**
 * @param {object} [options]
 * @param {number} [options.start] epoch ms of virtual time 0
 * @param {number} [options.storeMs] one store round trip
 * @param {number} [options.enrichmentMs] one enrichment lookup
 * @param {number} [options.sendMs] one provider send
 */
export function createSimulation({
  start = Date.parse('2026-04-14T09:00:00.000Z'),
  storeMs = 10,
  enrichmentMs = 800,
  sendMs = 500,
} = {}) {
  let elapsed = 0;
  let seq = 0;
  /** @type {{ due: number, seq: number, worker: string, fire: () => void }[]} */
  const timers = [];
  const frozenUntil = new Map();
  const freezeAfterClaim = new Map();
  const claimWriters = new Map();
  const trace = [];
  /** @type {{ worker: string, candidateId: string, at: number, claims: Record<string, string> }[]} */
  const sends = [];

  const now = () => start + elapsed;
  const stamp = () => `+${(elapsed / 1000).toFixed(3)}s`.padStart(9);
  const note = (worker, text) => trace.push(`${stamp()} ${worker.padEnd(11)} ${text}`);

  function after(worker, ms, fire) {
    timers.push({ due: elapsed + Math.max(0, ms), seq: seq++, worker, fire });
  }
  const clockFor = (worker) => Object.freeze({
    now,
    sleep: (ms) => new Promise((resolve) => after(worker, ms, resolve)),
  });

  const store = createMemoryStore({ clock: clockFor('store') });

  /** Live claims right now, as key -> name of the worker that wrote them. */
  function liveClaims() {
    const live = {};
    for (const key of Object.keys(store.snapshot())) {
      if (key.startsWith('claim:')) live[key] = claimWriters.get(key) ?? '?';
    }
    return live;
  }

  function storeFor(worker) {
    const clock = clockFor(worker);
    const view = {};
    for (const method of STORE_METHODS) {
      view[method] = async (...args) => {
        await clock.sleep(storeMs);
        const result = await store[method](...args);
        note(worker, `${method}(${args.slice(0, 2).map(show).join(', ')}) -> ${show(result)}`);
        if (String(args[0]).startsWith('claim:') && CLAIM_WRITES.has(method) && result !== false) {
          claimWriters.set(args[0], worker);
          if (freezeAfterClaim.has(worker)) {
            const ms = freezeAfterClaim.get(worker);
            freezeAfterClaim.delete(worker);
            frozenUntil.set(worker, elapsed + ms);
            note(worker, `freezes for ${ms / 1000}s (GC pause)`);
          }
        }
        await clock.sleep(0); // the reply travels back: a frozen worker only gets it when it wakes
        return result;
      };
    }
    return Object.freeze(view);
  }

  function providerFor(worker) {
    const clock = clockFor(worker);
    let n = 0;
    return Object.freeze({
      async send(email) {
        await clock.sleep(sendMs);
        n += 1;
        sends.push({ worker, candidateId: email.candidateId, at: elapsed, claims: liveClaims() });
        note(worker, `provider.send(${email.candidateId}) -> accepted`);
        return { messageId: `pm-${worker}-${n}` };
      },
    });
  }

  function enrichmentFor(worker) {
    const clock = clockFor(worker);
    return Object.freeze({
      async lookup(candidateId) {
        await clock.sleep(enrichmentMs);
        note(worker, `enrichment.lookup(${candidateId}) -> profile`);
        return { candidateId, currentTitle: 'Staff Engineer', currentCompany: 'Quillpay', refreshedAt: new Date(now()).toISOString() };
      },
    });
  }

  return {
    now,
    trace,
    sends,
    store,
    /** Everything a shard runner needs, for the worker named `worker`. */
    depsFor(worker) {
      return { workerId: worker, store: storeFor(worker), provider: providerFor(worker), enrichment: enrichmentFor(worker), clock: clockFor(worker) };
    },
    /** Freezes `worker` for `ms` right after its first successful claim. */
    freezeAfterClaim(worker, ms) {
      freezeAfterClaim.set(worker, ms);
    },
    /** Calls `fn` at virtual time `ms` on behalf of `worker`; resolves with its result. */
    at(worker, ms, fn) {
      return new Promise((resolve, reject) => {
        after(worker, ms - elapsed, () => {
          note(worker, 'polls the board: offered the shard');
          Promise.resolve().then(fn).then(resolve, reject);
        });
      });
    },
    /** Runs the world until every promise has settled; resolves with their outcomes. */
    async run(promises, { maxSteps = 100_000 } = {}) {
      let done = false;
      const all = Promise.allSettled(promises).then((results) => { done = true; return results; });
      for (let step = 0; step < maxSteps; step++) {
        for (let i = 0; i < 5; i++) await turn();
        if (done) return (await all).map((r) => (r.status === 'fulfilled' ? r.value : `threw ${r.reason?.message}`));
        if (timers.length === 0) throw new Error(`the workers are stuck: nothing is due and they have not finished.${explain(trace)}`);
        timers.sort((a, b) => a.due - b.due || a.seq - b.seq);
        const next = timers.shift();
        const wake = frozenUntil.get(next.worker) ?? 0;
        if (next.due < wake) {
          timers.push({ ...next, due: wake });
          continue;
        }
        const before = Object.keys(liveClaims());
        elapsed = Math.max(elapsed, next.due);
        const after = liveClaims();
        for (const key of before.filter((k) => !(k in after))) note('store', `${key} lapsed: its lease ran out`);
        next.fire();
      }
      throw new Error(`the run did not finish within ${maxSteps} steps.${explain(trace)}`);
    },
  };
}

/** The trace, for assertion messages. */
export function explain(trace) {
  return `\n\nWhat happened, in order (virtual time since the first claim):\n  ${trace.join('\n  ')}\n`;
}

function show(value) {
  if (value === undefined || value === null) return 'null';
  const text = JSON.stringify(value);
  return text.length > 48 ? `${text.slice(0, 45)}…` : text;
}
