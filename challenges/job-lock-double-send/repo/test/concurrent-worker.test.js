// The concurrent worker test: reproduces the duplicate shipment notification.
//
// Two workers, blue and green, share one store and one notification provider,
// as two worker processes share the remote store in production. The queue has
// delivered the same message twice (attempt 1 to blue, attempt 2 to green after
// the visibility timeout), and both deliveries are handled at the same time.
//
// Nothing here depends on real time. Every store call takes one turn of the
// event loop before it reaches the data, like a network round trip: while one
// worker's call is "on the wire", the other worker gets to run. That is enough
// to make the two workers interleave the same way on every run.
//
// Time is virtual. It stands still while any call is on the wire; once every
// worker is asleep or done, the clock moves to the earliest wake-up time and
// wakes whoever sleeps until then. A 5 ms wait ends before a 900 ms one, and a
// lock's lease runs out when its time has come, as in production.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { createConsumer } from '../src/worker/consumer.js';
import { createMemoryStore } from '../src/persistence/memory-store.js';

const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];

/**
 * Virtual time for one test, starting at the incident.
 *
 * `roundTrip()` is how every simulated call travels: one turn of the event
 * loop, during which the clock stands still. `clockFor(worker)` is the
 * worker's view of the clock; its sleeps are written to `trace` when they end.
 */
function virtualTime(trace, start = Date.parse('2026-03-14T13:27:01.000Z')) {
  let now = start;
  let onTheWire = 0;
  let slept = 0;
  let ticking = false;
  /** @type {{ at: number, order: number, wake: () => void }[]} */
  const sleepers = [];

  // Waits for a turn in which no call is on the wire, then moves the clock to
  // the earliest wake-up time and wakes everyone due then, in the order they
  // fell asleep. Repeats while anyone sleeps.
  async function tick() {
    ticking = true;
    while (sleepers.length > 0) {
      await nextTurn();
      if (onTheWire > 0) continue;
      sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
      now = Math.max(now, sleepers[0].at);
      while (sleepers.length > 0 && sleepers[0].at <= now) sleepers.shift().wake();
    }
    ticking = false;
  }

  return {
    async roundTrip() {
      onTheWire += 1;
      try {
        await nextTurn();
      } finally {
        onTheWire -= 1;
      }
    },
    clockFor: (worker) => ({
      now: () => now,
      sleep: (ms) => new Promise((resolve) => {
        const at = now + Math.max(0, Number(ms) || 0);
        sleepers.push({
          at,
          order: slept++,
          wake: () => {
            trace.push(`${worker.padEnd(6)} sleep(${ms}) -> woke at +${at - start} ms`);
            resolve();
          },
        });
        if (!ticking) tick();
      }),
    }),
  };
}

/** The notification provider: records every notification it accepts. */
function recordingProvider(roundTrip) {
  const sent = [];
  return {
    sent,
    async send(notification) {
      await roundTrip();
      sent.push(notification);
      return { providerMessageId: `pm-${sent.length}` };
    },
  };
}

/**
 * Wraps the shared store and the provider for one worker, writing each call to
 * `trace` once it has been applied: the trace lists operations in the order
 * they really happened.
 */
function traced(target, methods, worker, trace) {
  const view = {};
  for (const method of methods) {
    view[method] = async (...args) => {
      const result = await target[method](...args);
      trace.push(`${worker.padEnd(6)} ${method}(${args.slice(0, 2).map(show).join(', ')}) -> ${show(result)}`);
      return result;
    };
  }
  return view;
}

function show(value) {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'object' && 'dedupeKey' in value) return `{ dedupeKey: ${show(value.dedupeKey)} }`;
  if (typeof value === 'object' && 'providerMessageId' in value) return show(value.providerMessageId);
  const text = JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** Delivery number `attempt` of the queue message for `jobId`. */
function delivery(jobId, attempt, id = `msg-${jobId}`) {
  return {
    id,
    jobId,
    attempt,
    payload: { orderId: `SO-${jobId}`, recipient: 'customer@example.com', carrier: 'dhl', trackingNumber: `JD0146${jobId}` },
  };
}

/** Two workers on one store, with a shared trace. */
function setUp() {
  const trace = [];
  const time = virtualTime(trace);
  const store = createMemoryStore({ clock: time.clockFor('store'), beforeOperation: time.roundTrip });
  const provider = recordingProvider(time.roundTrip);
  const worker = (workerId) =>
    createConsumer({
      workerId,
      store: traced(store, STORE_METHODS, workerId, trace),
      provider: traced(provider, ['send'], workerId, trace),
      clock: time.clockFor(workerId),
    });
  return { trace, store, provider, blue: worker('blue'), green: worker('green') };
}

function explain(trace) {
  return `\n\nWhat happened, in order:\n  ${trace.join('\n  ')}\n`;
}

describe('the concurrent worker test', () => {
  test('two workers handling two deliveries of the same job send exactly one notification', async () => {
    const { trace, provider, blue, green } = setUp();

    const outcomes = await Promise.all([
      blue.handle(delivery('job-7', 1)),
      green.handle(delivery('job-7', 2)),
    ]);

    assert.equal(
      provider.sent.length,
      1,
      `job-7 was notified ${provider.sent.length} times; it must be exactly once.` +
        ` Outcomes: blue=${outcomes[0]}, green=${outcomes[1]}.${explain(trace)}`,
    );
    assert.equal(outcomes.filter((o) => o === 'sent').length, 1, `exactly one worker sends.${explain(trace)}`);
    for (const outcome of outcomes.filter((o) => o !== 'sent')) {
      assert.ok(['busy', 'duplicate'].includes(outcome), `the other worker backs off; it returned ${outcome}.${explain(trace)}`);
    }
  });

  test('a redelivery after the job was sent is acked as a duplicate', async () => {
    const { trace, provider, blue, green } = setUp();

    assert.equal(await blue.handle(delivery('job-8', 1)), 'sent');
    // The queue did not see blue's ack in time and delivers the message again.
    const second = await green.handle(delivery('job-8', 2));

    assert.equal(second, 'duplicate', `the second delivery returned ${second}.${explain(trace)}`);
    assert.equal(provider.sent.length, 1, `job-8 was notified ${provider.sent.length} times.${explain(trace)}`);
  });

  test('two different jobs are handled at the same time', async () => {
    const { trace, provider, blue, green } = setUp();

    const outcomes = await Promise.all([
      blue.handle(delivery('job-9', 1)),
      green.handle(delivery('job-10', 1)),
    ]);

    assert.deepEqual(outcomes, ['sent', 'sent'], `each job is sent by the worker that received it.${explain(trace)}`);
    assert.deepEqual(
      provider.sent.map((n) => n.dedupeKey).sort(),
      ['shipment:job-10', 'shipment:job-9'],
      `one notification per job.${explain(trace)}`,
    );
  });
});
