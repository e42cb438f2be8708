// The send-back test: reproduces the transfers that hung on 2026-04-22.
//
// Two pods, pod-a and pod-b, share one balance store, one lock service and
// one journal, as the production pods share ledger-kv, ledger-locks and the
// general ledger. Maya pays Jonas 25.00 EUR on pod-a while Jonas taps "Send it
// back" on an earlier 25.00 EUR from Maya, which lands on pod-b.
//
// Nothing depends on real time. Every call to the store, the lock service and
// the journal takes one turn of the event loop before it arrives, like a round
// trip, so the two pods take turns in the same way on every run. Time is
// virtual: it stands still while any call is on the wire; once every pod is
// asleep, waiting for a lock or done, the clock moves to the earliest wake-up
// time and wakes whoever sleeps until then. A 5 ms wait ends before a
// 900 ms one, as it would in production.
//
// When both pods wait for a lock the other one holds, the test stops and
// prints who holds and who waits, instead of hanging the way production did.
// It also stops when the transfers are still not done at 30 s, when the
// gateway gives up on them.

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

/** The gateway answers 504 after 30 s: a transfer not done by then has failed its customer. */
const GATEWAY_TIMEOUT_MS = 30_000;

/** Gives up on a scenario after this many calls without finishing, even if no time passes. */
const MAX_CALLS = 1_000;

/** Trace lines shown when a test fails; a retry loop can write thousands. */
const SHOWN_STEPS = 60;

/**
 * Virtual time for one scenario, starting at the incident.
 *
 * `roundTrip()` is how every simulated call travels: one turn of the event
 * loop, during which the clock stands still. `clockFor(pod)` is the pod's view
 * of the clock; its sleeps are written to `trace` when they end. runTogether()
 * moves the clock with wakeNext() whenever no call is on the wire. Once
 * halted, calls and sleeps never end, so pods stuck in a retry loop stop
 * instead of keeping the test process alive.
 */
function virtualTime(trace, start = Date.parse('2026-04-22T19:04:11.200Z')) {
  let now = start;
  let onTheWire = 0;
  let calls = 0;
  let slept = 0;
  let halted = false;
  /** @type {{ at: number, order: number, wake: () => void }[]} */
  const sleepers = [];
  const forever = () => new Promise(() => {});

  return {
    elapsed: () => now - start,
    calls: () => calls,
    quiet: () => onTheWire === 0,
    /** Milliseconds from the start to the earliest wake-up time, or null if nobody sleeps. */
    nextWake: () => (sleepers.length === 0 ? null : Math.min(...sleepers.map((s) => s.at)) - start),
    /** Moves the clock to the earliest wake-up time and wakes everyone due then, in the order they fell asleep. */
    wakeNext() {
      sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
      now = Math.max(now, sleepers[0].at);
      while (sleepers.length > 0 && sleepers[0].at <= now) sleepers.shift().wake();
    },
    halt() {
      halted = true;
    },
    async roundTrip() {
      if (halted) return forever();
      calls += 1;
      onTheWire += 1;
      try {
        await nextTurn();
      } finally {
        onTheWire -= 1;
      }
      if (halted) return forever();
    },
    clockFor: (pod) => ({
      now: () => now,
      sleep: (ms) => (halted ? forever() : new Promise((resolve) => {
        const at = now + Math.max(0, Number(ms) || 0);
        sleepers.push({
          at,
          order: slept++,
          wake: () => {
            trace.push(line(pod, `sleep(${ms})`, `woke at +${at - start} ms`));
            resolve();
          },
        });
      })),
    }),
  };
}

/** The world both pods share, with one trace of everything in the order it happened. */
function setUp() {
  const trace = [];
  const time = virtualTime(trace);
  const store = new MemoryStore({ clock: time.clockFor('ledger-kv'), initial: OPENING_BALANCES, beforeOperation: time.roundTrip });
  const lockServer = new MemoryLockServer({
    beforeOperation: async (operation, key, session) => {
      await time.roundTrip();
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
      await time.roundTrip();
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
    clock: time.clockFor(podId),
  });
  return { trace, time, store, lockServer, journal, podA: pod('pod-a'), podB: pod('pod-b') };
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
 * Runs transfers side by side, moving the clock whenever no call is on the
 * wire, until they all settle. If instead the pods deadlock, the gateway
 * gives up on them, MAX_CALLS calls pass, or nothing is left to wake them,
 * it halts the pods and says why. Never hangs.
 */
async function runTogether({ time, lockServer }, calls) {
  const results = calls.map(() => ({ settled: false }));
  calls.forEach((promise, i) => promise.then(
    (value) => Object.assign(results[i], { settled: true, value }),
    (error) => Object.assign(results[i], { settled: true, error }),
  ));
  const began = { ms: time.elapsed(), calls: time.calls() };
  const stop = (why, waits = lockServer.waits()) => {
    time.halt();
    return { results, stuck: true, why, waits };
  };
  for (;;) {
    await nextTurn();
    if (results.every((r) => r.settled)) return { results, stuck: false };
    const cycle = lockServer.deadlock();
    if (cycle) return stop('deadlock', cycle);
    if (time.calls() - began.calls > MAX_CALLS) return stop('calls');
    if (!time.quiet()) continue;
    const next = time.nextWake();
    if (next === null) return stop('nothing due');
    if (next - began.ms > GATEWAY_TIMEOUT_MS) return stop('gateway');
    time.wakeNext();
  }
}

/** Runs one transfer on its own (see runTogether) and resolves to its outcome. */
async function runAlone(world, call) {
  const run = await runTogether(world, [call]);
  assert.ok(!run.stuck, `${whyStuck(run)}${explain(world.trace)}`);
  return outcomes(run.results)[0];
}

function describeWaits(waits) {
  return waits.map((w) => `${w.session} waits for ${w.key}, held by ${w.holder ?? 'nobody'}`).join('; ');
}

/** Why a run did not finish, in words. */
function whyStuck(run) {
  if (!run.stuck) return 'the transfers finished.';
  const so = ` (outcomes: ${outcomes(run.results).join(', ')})`;
  switch (run.why) {
    case 'deadlock':
      return `the transfers deadlocked: ${describeWaits(run.waits)}.`
        + ' None of them can ever finish; in production such requests hung until the gateway answered 504.';
    case 'calls':
      return `after ${MAX_CALLS} calls to the store, the lock service and the journal the transfers were still not done${so}:`
        + ' they keep going round without finishing.';
    case 'gateway':
      return `${GATEWAY_TIMEOUT_MS / 1000} s after they started the transfers were still not done${so}:`
        + ' they keep going round without finishing, and the gateway has answered 504'
        + `${run.waits.length > 0 ? ` (${describeWaits(run.waits)})` : ''}.`;
    default:
      return `the transfers stopped without finishing${so}: no call is on the wire and nobody sleeps`
        + `${run.waits.length > 0 ? `, but ${describeWaits(run.waits)}` : ''}; nothing will ever wake them.`;
  }
}

function outcomes(results) {
  return results.map((r) => (!r.settled ? 'still running' : r.error ? `threw ${r.error.message}` : r.value));
}

describe('the send-back test', () => {
  test('a payment and its "Send it back" at the same moment both complete', async () => {
    const world = setUp();
    const { trace, store, journal, podA, podB } = world;

    const run = await runTogether(world, [
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
    const world = setUp();
    const { trace, journal, podA, podB } = world;

    const run = await runTogether(world, [
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
    const world = setUp();
    const { trace, store, journal, podA, podB } = world;
    const payment = { id: 'trf_01JS8M5B7K', from: MAYA, to: JONAS, amountCents: 2500 };

    assert.equal(await runAlone(world, podA.transfer(payment)), 'posted');
    // The gateway timed out before the app saw the answer; the app retries.
    const retry = await runAlone(world, podB.transfer(payment));

    assert.equal(retry, 'duplicate', `the retry returned ${retry}.${explain(trace)}`);
    assert.equal(journal.entries.length, 1, `the transfer was booked ${journal.entries.length} times.${explain(trace)}`);
    assert.equal(store.snapshot()[`balance:${MAYA}`], '10000', `Maya was debited once.${explain(trace)}`);
  });
});
