// The capture retry test: reproduces the double capture of 8 May.
//
// Three instances of the API (api-0, api-1, api-2) share one store, as the
// three pods share Redis in production, and one sandbox Kestrel that holds
// each capture for a while before answering. The checkout side is played by
// the test: it sends a capture, gives up waiting after 2 s and retries with
// the same Idempotency-Key, which the ingress routes to another instance.
//
// Nothing here uses real time. Every store call waits one turn of the event
// loop before it reaches the data, like a round trip to Redis, so the
// instances interleave the same way on every run. Time is virtual: it stands
// still while any call to Redis is on the wire; once every instance and the
// checkout are waiting (on Kestrel, or on a sleep) or done, the clock moves to
// the earliest wake-up time and wakes whoever waits until then. A 5 ms wait
// ends before a 900 ms one, as it would in production.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { createApp } from '../src/app.js';
import { MemoryStore } from '../src/persistence/memory-store.js';
import { createSandboxPsp } from '../src/psp/sandbox-psp.js';

const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];
const STARTED_AT = Date.parse('2026-05-08T19:14:05.521Z');
const CLIENT_TIMEOUT_MS = 2000;

/**
 * Virtual time, starting at the incident.
 *
 * `roundTrip()` is how every call to Redis travels: one turn of the event
 * loop, during which the clock stands still. Kestrel's latency, the
 * checkout's waits and anything an instance sleeps are sleeps on the clock.
 */
function virtualTime() {
  let now = STARTED_AT;
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

  const clock = {
    now: () => now,
    /** Milliseconds since the first attempt was sent. */
    elapsed: () => now - STARTED_AT,
    /** Resolves after `ms` of virtual time; `onWake` runs as it ends. */
    sleep: (ms, onWake = () => {}) => new Promise((resolve) => {
      sleepers.push({ at: now + Math.max(0, Number(ms) || 0), order: slept++, wake: () => { onWake(); resolve(); } });
      if (!ticking) tick();
    }),
    /** Resolves at `ms` after the first attempt was sent. */
    until: (ms) => clock.sleep(STARTED_AT + ms - now),
    async roundTrip() {
      onTheWire += 1;
      try {
        await nextTurn();
      } finally {
        onTheWire -= 1;
      }
    },
  };
  return clock;
}

/** One instance's view of the clock: its sleeps are written to `trace` as they end. */
function instanceClock(clock, instance, trace) {
  return {
    now: clock.now,
    sleep: (ms) => clock.sleep(ms, () => trace.push(`${String(clock.elapsed()).padStart(5)} ms  ${instance}  sleep(${ms}) ended`)),
  };
}

/** Wraps `target` for one instance so that each applied call is written to `trace`. */
function traced(target, methods, instance, clock, trace) {
  const view = {};
  for (const method of methods) {
    view[method] = async (...args) => {
      const shown = method === 'capture' ? args[0].paymentId : args[0];
      if (method === 'capture') trace.push(`${String(clock.elapsed()).padStart(5)} ms  ${instance}  capture(${shown}) sent to Kestrel`);
      try {
        const result = await target[method](...args);
        trace.push(`${String(clock.elapsed()).padStart(5)} ms  ${instance}  ${method}(${shown}) -> ${brief(result)}`);
        return result;
      } catch (error) {
        trace.push(`${String(clock.elapsed()).padStart(5)} ms  ${instance}  ${method}(${shown}) threw ${error.code ?? error.message}`);
        throw error;
      }
    };
  }
  return view;
}

function brief(value) {
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'object' && 'captureId' in value) return value.captureId;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 48 ? `${text.slice(0, 47)}…` : text;
}

/** The API as the checkout sees it: three instances behind one ingress. */
function setUp({ latencyMs = () => 600, failWith = () => null } = {}) {
  const trace = [];
  const clock = virtualTime();
  const store = new MemoryStore({ clock, beforeEach: clock.roundTrip });
  const psp = createSandboxPsp({ clock, latencyMs, failWith });
  const instance = (instanceId) => createApp({
    instanceId,
    store: traced(store, STORE_METHODS, instanceId, clock, trace),
    psp: traced(psp, ['capture'], instanceId, clock, trace),
    clock: instanceClock(clock, instanceId, trace),
  });
  return { trace, clock, psp, store, api: [instance('api-0'), instance('api-1'), instance('api-2')] };
}

/** Attempt `attempt` of the checkout's capture request for one order. */
function captureRequest({ paymentId = 'pay_5mQ2rT8vXc', key = '9b1d4e7a-0c55-4f3e-a1b8-6d2f7c90e413', amount = 14800, attempt = 1 } = {}) {
  return {
    method: 'POST',
    path: `/v1/payments/${paymentId}/capture`,
    headers: { 'content-type': 'application/json', 'idempotency-key': key, 'x-request-id': `rq_test${attempt}` },
    body: { amount, currency: 'GBP' },
  };
}

/**
 * What checkout-bff does with an answer it waited for: on 409 it waits
 * Retry-After and asks again (the ingress picks the next instance), for up to
 * 30 s after the first attempt.
 */
async function untilFinal({ clock, api }, response, attempt) {
  let n = attempt;
  while (response.status === 409 && clock.elapsed() < 30_000) {
    await clock.sleep(Number(response.headers['retry-after'] ?? 1) * 1000);
    n += 1;
    response = await api[n % api.length].handle(captureRequest({ attempt: n }));
  }
  return response;
}

function explain(trace) {
  return `\n\nWhat reached the store and Kestrel, in order:\n  ${trace.join('\n  ')}\n`;
}

describe('the capture retry test', () => {
  test('a retry that reaches another instance while the first capture is still at Kestrel does not capture again', async () => {
    // Kestrel takes 2.4 s for the first capture: longer than the checkout waits.
    const world = setUp({ latencyMs: (call) => (call === 1 ? 2400 : 1700) });
    const { clock, api, psp, trace } = world;

    const first = api[0].handle(captureRequest({ attempt: 1 }));
    const retried = clock.until(CLIENT_TIMEOUT_MS + 19) // the checkout gives up and retries
      .then(() => api[1].handle(captureRequest({ attempt: 2 })))
      .then((response) => untilFinal(world, response, 2));

    const [abandoned, answer] = await Promise.all([first, retried]);
    assert.equal(psp.captures.length, 1,
      `the payment was captured ${psp.captures.length} times (${psp.captures.map((c) => c.captureId).join(', ')}); it must be once.${explain(trace)}`);
    assert.equal(answer.status, 200, `the checkout's retry ended with ${answer.status} ${JSON.stringify(answer.body)}.${explain(trace)}`);
    assert.equal(answer.body.captureId, psp.captures[0].captureId, `the checkout was told about another capture.${explain(trace)}`);
    assert.equal(abandoned.body.captureId, psp.captures[0].captureId, `the first attempt answered another capture.${explain(trace)}`);
  });

  test('a late retry is answered with the capture already made, without calling Kestrel', async () => {
    const { clock, api, psp, trace } = setUp();

    const first = await api[0].handle(captureRequest({ attempt: 1 }));
    assert.equal(first.status, 200, `the first attempt answered ${first.status}.${explain(trace)}`);

    // The checkout never saw that answer: its first retry went out when it gave
    // up waiting, and its second comes 6 s after that.
    await clock.until(CLIENT_TIMEOUT_MS + 19 + 6_000);
    const late = await api[2].handle(captureRequest({ attempt: 3 }));

    assert.equal(late.status, 200, `the late retry answered ${late.status} ${JSON.stringify(late.body)}.${explain(trace)}`);
    assert.equal(late.body.captureId, first.body.captureId, `the late retry named another capture.${explain(trace)}`);
    assert.equal(late.headers['idempotent-replayed'], 'true', `the late retry was not marked as a replay.${explain(trace)}`);
    assert.equal(psp.calls, 1, `Kestrel was called ${psp.calls} times.${explain(trace)}`);
  });

  test('a capture Kestrel failed can be retried with the same key', async () => {
    const { clock, api, psp, trace } = setUp({ failWith: (call) => (call === 1 ? 'processor_unavailable' : null) });

    // The instance answers 502 (nothing stored, the checkout retries), or
    // tries Kestrel again itself and answers 200: either is in the contract.
    const first = await api[0].handle(captureRequest({ attempt: 1 }));
    assert.ok([200, 502].includes(first.status), `a failed capture answered ${first.status}.${explain(trace)}`);

    const final = first.status === 200 ? first : await api[1].handle(captureRequest({ attempt: 2 }));
    assert.equal(final.status, 200, `the retry after a failure answered ${final.status} ${JSON.stringify(final.body)}.${explain(trace)}`);
    assert.equal(psp.captures.length, 1, `Kestrel made ${psp.captures.length} captures.${explain(trace)}`);
  });

  test('the same key sent for a different amount is refused', async () => {
    const { clock, api, psp, trace } = setUp();

    await api[0].handle(captureRequest({ attempt: 1 }));
    const other = await api[1].handle(captureRequest({ amount: 9900, attempt: 2 }));

    assert.equal(other.status, 422, `reusing the key for another amount answered ${other.status}.${explain(trace)}`);
    assert.equal(psp.captures.length, 1, `Kestrel made ${psp.captures.length} captures.${explain(trace)}`);
  });
});
