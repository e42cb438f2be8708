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

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { createConsumer } from '../src/worker/consumer.js';
import { createMemoryStore } from '../src/persistence/memory-store.js';

const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];

/** A clock that only moves when someone sleeps on it. Starts at the incident. */
function steppingClock(start = Date.parse('2026-03-14T13:27:01.000Z')) {
  let now = start;
  return {
    now: () => now,
    async sleep(ms) {
      await nextTurn();
      now += ms;
    },
  };
}

/** The notification provider: records every notification it accepts. */
function recordingProvider() {
  const sent = [];
  return {
    sent,
    async send(notification) {
      await nextTurn();
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
  const clock = steppingClock();
  const store = createMemoryStore({ clock, beforeOperation: () => nextTurn() });
  const provider = recordingProvider();
  const worker = (workerId) =>
    createConsumer({
      workerId,
      store: traced(store, STORE_METHODS, workerId, trace),
      provider: traced(provider, ['send'], workerId, trace),
      clock,
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
