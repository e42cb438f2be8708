// The send-back test: reproduces the transfers that hung on 2026-04-22.
//
// Two pods, pod-a and pod-b, share one balance store, one lock service and
// one journal, as the production pods share ledger-kv, ledger-locks and the
// general ledger. Maya pays Jonas 25.00 EUR on pod-a while Jonas taps "Send it
// back" on an earlier 25.00 EUR from Maya, which lands on pod-b.
//
// Nothing depends on real time. Every call to the store, the lock service and
// the journal takes one turn of the event loop before it arrives, like a round
// trip, so the two pods take turns in the same way on every run. When both
// pods wait for a lock the other one holds, the test stops and prints who
// holds and who waits, instead of hanging the way production did.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { createTransferService } from '../src/transfers/service.js';
import { MemoryStore } from '../src/persistence/memory-store.js';
import { MemoryLockServer } from '../src/persistence/memory-locks.js';

const MAYA = 'wal-104217';
const JONAS = 'wal-220391';
const PRIYA = 'wal-318840';
const TOMAS = 'wal-402266';

const OPENING_BALANCES = {
  [`balance:${MAYA}`]: '12500',
  [`balance:${JONAS}`]: '4000',
  [`balance:${PRIYA}`]: '9000',
  [`balance:${TOMAS}`]: '1500',
};

/** Gives up on a scenario after this many turns of the event loop without finishing. */
const MAX_TURNS = 500;

/** Trace lines shown when a test fails; a retry loop can write thousands. */
const SHOWN_STEPS = 60;

/**
 * A clock that stands still until someone sleeps on it. Starts at the incident.
 * `turn` is how every simulated call waits for its round trip.
 */
function steppingClock(turn, start = Date.parse('2026-04-22T19:04:11.200Z')) {
  let now = start;
  return {
    now: () => now,
    async sleep(ms) {
      await turn();
      now += ms;
    },
  };
}

/** The world both pods share, with one trace of everything in the order it happened. */
function setUp() {
  const trace = [];
  // Once a scenario is given up on, every further call and sleep waits
  // forever, so pods stuck in a retry loop stop instead of keeping the test
  // process alive.
  let halted = false;
  const turn = () => (halted ? new Promise(() => {}) : nextTurn());
  const halt = () => { halted = true; };
  const clock = steppingClock(turn);
  const store = new MemoryStore({ clock, initial: OPENING_BALANCES, beforeOperation: turn });
  const lockServer = new MemoryLockServer({
    beforeOperation: async (operation, key, session) => {
      await turn();
      // The call reaches the lock table right after this: describe what it finds.
      const holder = lockServer.held()[key];
      if (operation === 'release') {
        const next = lockServer.waits().find((w) => w.key === key);
        trace.push(line(session, `release(${key})`, next ? `released; ${next.session} gets it` : 'released'));
      } else if (holder === undefined) {
        trace.push(line(session, `${operation}(${key})`, operation === 'acquire' ? 'granted' : 'true'));
      } else {
        trace.push(line(session, `${operation}(${key})`, operation === 'acquire' ? `waits: held by ${holder}` : `false: held by ${holder}`));
      }
    },
  });

  const journal = { entries: [], inFlight: 0, maxInFlight: 0 };
  const journalFor = (pod) => ({
    async post(entry) {
      journal.inFlight += 1;
      journal.maxInFlight = Math.max(journal.maxInFlight, journal.inFlight);
      await turn();
      journal.inFlight -= 1;
      journal.entries.push(entry);
      const entryId = `je_${String(journal.entries.length).padStart(6, '0')}`;
      trace.push(line(pod, `journal.post(${entry.transferId})`, entryId));
      return { entryId };
    },
  });

  const storeFor = (pod) => ({
    async get(key) {
      const value = await store.get(key);
      trace.push(line(pod, `get(${key})`, show(value)));
      return value;
    },
    async set(key, value, options) {
      await store.set(key, value, options);
      trace.push(line(pod, `set(${key})`, `wrote ${show(value)}`));
    },
    async setIfAbsent(key, value, options) {
      const wrote = await store.setIfAbsent(key, value, options);
      trace.push(line(pod, `setIfAbsent(${key})`, String(wrote)));
      return wrote;
    },
    async delete(key) {
      await store.delete(key);
      trace.push(line(pod, `delete(${key})`, 'deleted'));
    },
  });

  const pod = (podId) => createTransferService({
    podId,
    store: storeFor(podId),
    locks: lockServer.session(podId),
    journal: journalFor(podId),
    clock,
  });
  return { trace, store, lockServer, journal, halt, podA: pod('pod-a'), podB: pod('pod-b') };
}

function line(who, call, result) {
  return `${who.padEnd(6)} ${call.padEnd(40)} -> ${result}`;
}

function show(value) {
  if (value === null || value === undefined) return 'null';
  return value.length > 30 ? `${JSON.stringify(value.slice(0, 27))}…` : JSON.stringify(value);
}

function explain(trace) {
  const shown = trace.slice(0, SHOWN_STEPS);
  const more = trace.length > SHOWN_STEPS ? `\n  … and ${trace.length - SHOWN_STEPS} more steps like these` : '';
  return `\n\nWhat happened, in order:\n  ${shown.join('\n  ')}${more}\n`;
}

/**
 * Runs transfers side by side until they all settle, the pods deadlock, or
 * MAX_TURNS pass; then halts the pods. Never hangs.
 */
async function runTogether({ lockServer, halt }, calls) {
  const results = calls.map(() => ({ settled: false }));
  calls.forEach((promise, i) => promise.then(
    (value) => Object.assign(results[i], { settled: true, value }),
    (error) => Object.assign(results[i], { settled: true, error }),
  ));
  try {
    for (let turn = 0; turn < MAX_TURNS && !results.every((r) => r.settled); turn++) {
      await nextTurn();
      const cycle = lockServer.deadlock();
      if (cycle) return { results, deadlock: cycle, stuck: true };
    }
    return { results, deadlock: null, stuck: !results.every((r) => r.settled) };
  } finally {
    halt();
  }
}

/** Why a run did not finish, in words. */
function whyStuck(run) {
  if (run.deadlock) {
    return `the transfers deadlocked: ${run.deadlock.map((w) => `${w.session} waits for ${w.key}, held by ${w.holder}`).join('; ')}.`
      + ' None of them can ever finish; in production such requests hung until the gateway answered 504.';
  }
  return `after ${MAX_TURNS} turns of the event loop the transfers were still not done (outcomes: ${outcomes(run.results).join(', ')}):`
    + ' they keep going round without finishing.';
}

function outcomes(results) {
  return results.map((r) => (!r.settled ? 'still running' : r.error ? `threw ${r.error.message}` : r.value));
}

describe('the send-back test', () => {
  test('a payment and its "Send it back" at the same moment both complete', async () => {
    const { trace, store, lockServer, journal, halt, podA, podB } = setUp();

    const run = await runTogether({ lockServer, halt }, [
      podA.transfer({ id: 'trf_01JS8M3Q7V', from: MAYA, to: JONAS, amountCents: 2500 }),
      podB.transfer({ id: 'trf_01JS8M3Q9B', from: JONAS, to: MAYA, amountCents: 2500, reason: 'send_back', sendsBack: 'trf_01JS8KZ2TN' }),
    ]);

    assert.ok(!run.stuck, `${whyStuck(run)}${explain(trace)}`);
    assert.deepEqual(outcomes(run.results), ['posted', 'posted'],
      `both transfers must be posted; they ended with: ${outcomes(run.results).join(', ')}.${explain(trace)}`);

    const balances = store.snapshot();
    assert.equal(balances[`balance:${MAYA}`], '12500', `Maya paid 25.00 and got 25.00 back.${explain(trace)}`);
    assert.equal(balances[`balance:${JONAS}`], '4000', `Jonas got 25.00 and sent 25.00 back.${explain(trace)}`);
    assert.deepEqual(journal.entries.map((e) => e.transferId).sort(), ['trf_01JS8M3Q7V', 'trf_01JS8M3Q9B'],
      `one journal entry per transfer.${explain(trace)}`);
  });

  test('transfers between unrelated wallets run side by side', async () => {
    const { trace, lockServer, journal, halt, podA, podB } = setUp();

    const run = await runTogether({ lockServer, halt }, [
      podA.transfer({ id: 'trf_01JS8M4A1C', from: MAYA, to: JONAS, amountCents: 1800 }),
      podB.transfer({ id: 'trf_01JS8M4A3F', from: PRIYA, to: TOMAS, amountCents: 1200 }),
    ]);

    assert.ok(!run.stuck, `${whyStuck(run)}${explain(trace)}`);
    assert.deepEqual(outcomes(run.results), ['posted', 'posted'],
      `both transfers must be posted; they ended with: ${outcomes(run.results).join(', ')}.${explain(trace)}`);
    assert.equal(journal.maxInFlight, 2,
      'the two transfers share no account, yet one waited for the other to finish: unrelated transfers' +
      ` must not queue behind each other (that was the ledger-wide mutex LED-412 removed).${explain(trace)}`);
  });

  test('a retried transfer is posted once', async () => {
    const { trace, store, journal, podA, podB } = setUp();
    const payment = { id: 'trf_01JS8M5B7K', from: MAYA, to: JONAS, amountCents: 2500 };

    assert.equal(await podA.transfer(payment), 'posted');
    // The gateway timed out before the app saw the answer; the app retries.
    const retry = await podB.transfer(payment);

    assert.equal(retry, 'duplicate', `the retry returned ${retry}.${explain(trace)}`);
    assert.equal(journal.entries.length, 1, `the transfer was booked ${journal.entries.length} times.${explain(trace)}`);
    assert.equal(store.snapshot()[`balance:${MAYA}`], '10000', `Maya was debited once.${explain(trace)}`);
  });
});
