// The capture retry test: reproduces the double capture of 8 May.
//
// Three instances of the API (api-0, api-1, api-2) share one store, as the
// three pods share Redis in production, and one sandbox Kestrel that holds
// each capture for a while before answering. The checkout side is played by
// the test: it sends a capture, gives up waiting after 2 s and retries with
// the same Idempotency-Key, which the ingress routes to another instance.
//
// Nothing here uses real time. The clock only moves when the test moves it,
// and every store call waits one turn of the event loop before it reaches the
// data, like a round trip to Redis, so the instances interleave the same way
// on every run.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { createApp } from '../src/app.js';
import { MemoryStore } from '../src/persistence/memory-store.js';
import { createSandboxPsp } from '../src/psp/sandbox-psp.js';

const STORE_METHODS = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];
const STARTED_AT = Date.parse('2026-05-08T19:14:05.521Z');
const CLIENT_TIMEOUT_MS = 2000;

/** Lets every pending promise and store round trip run. */
async function settle() {
  for (let i = 0; i < 40; i++) await nextTurn();
}

/** A clock that only moves when the test calls advanceTo(). */
function manualClock() {
  let now = STARTED_AT;
  let order = 0;
  const sleepers = [];
  return {
    now: () => now,
    sleep: (ms) => new Promise((resolve) => { sleepers.push({ at: now + ms, order: order++, resolve }); }),
    elapsed: () => now - STARTED_AT,
    /** Moves time to `ms` after the start, waking every sleeper due on the way, in order. */
    async advanceTo(ms) {
      const target = STARTED_AT + ms;
      for (;;) {
        await settle();
        sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
        if (sleepers.length === 0 || sleepers[0].at > target) break;
        const next = sleepers.shift();
        now = Math.max(now, next.at);
        next.resolve();
      }
      now = Math.max(now, target);
      await settle();
    },
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
  const clock = manualClock();
  const store = new MemoryStore({ clock, beforeEach: () => nextTurn() });
  const psp = createSandboxPsp({ clock, latencyMs, failWith });
  const instance = (instanceId) => createApp({
    instanceId,
    store: traced(store, STORE_METHODS, instanceId, clock, trace),
    psp: traced(psp, ['capture'], instanceId, clock, trace),
    clock,
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
    await clock.advanceTo(CLIENT_TIMEOUT_MS + 19); // the checkout gives up and retries
    const retried = api[1].handle(captureRequest({ attempt: 2 })).then((response) => untilFinal(world, response, 2));
    await clock.advanceTo(40_000);

    const [abandoned, answer] = await Promise.all([first, retried]);
    assert.equal(psp.captures.length, 1,
      `the payment was captured ${psp.captures.length} times (${psp.captures.map((c) => c.captureId).join(', ')}); it must be once.${explain(trace)}`);
    assert.equal(answer.status, 200, `the checkout's retry ended with ${answer.status} ${JSON.stringify(answer.body)}.${explain(trace)}`);
    assert.equal(answer.body.captureId, psp.captures[0].captureId, `the checkout was told about another capture.${explain(trace)}`);
    assert.equal(abandoned.body.captureId, psp.captures[0].captureId, `the first attempt answered another capture.${explain(trace)}`);
  });

  test('a late retry is answered with the capture already made, without calling Kestrel', async () => {
    const { clock, api, psp, trace } = setUp();

    const first = await Promise.all([api[0].handle(captureRequest({ attempt: 1 })), clock.advanceTo(1000)]).then(([r]) => r);
    assert.equal(first.status, 200, `the first attempt answered ${first.status}.${explain(trace)}`);

    await clock.advanceTo(10_000); // the checkout's second retry comes 6 s after its first
    const [late] = await Promise.all([api[2].handle(captureRequest({ attempt: 3 })), clock.advanceTo(11_000)]);

    assert.equal(late.status, 200, `the late retry answered ${late.status} ${JSON.stringify(late.body)}.${explain(trace)}`);
    assert.equal(late.body.captureId, first.body.captureId, `the late retry named another capture.${explain(trace)}`);
    assert.equal(late.headers['idempotent-replayed'], 'true', `the late retry was not marked as a replay.${explain(trace)}`);
    assert.equal(psp.calls, 1, `Kestrel was called ${psp.calls} times.${explain(trace)}`);
  });

  test('a capture Kestrel failed can be retried with the same key', async () => {
    const { clock, api, psp, trace } = setUp({ failWith: (call) => (call === 1 ? 'processor_unavailable' : null) });

    const [failed] = await Promise.all([api[0].handle(captureRequest({ attempt: 1 })), clock.advanceTo(1000)]);
    assert.equal(failed.status, 502, `a failed capture answered ${failed.status}.${explain(trace)}`);

    const [retry] = await Promise.all([api[1].handle(captureRequest({ attempt: 2 })), clock.advanceTo(2000)]);
    assert.equal(retry.status, 200, `the retry after a failure answered ${retry.status} ${JSON.stringify(retry.body)}.${explain(trace)}`);
    assert.equal(psp.captures.length, 1, `Kestrel made ${psp.captures.length} captures.${explain(trace)}`);
  });

  test('the same key sent for a different amount is refused', async () => {
    const { clock, api, psp, trace } = setUp();

    await Promise.all([api[0].handle(captureRequest({ attempt: 1 })), clock.advanceTo(1000)]);
    const [other] = await Promise.all([api[1].handle(captureRequest({ amount: 9900, attempt: 2 })), clock.advanceTo(2000)]);

    assert.equal(other.status, 422, `reusing the key for another amount answered ${other.status}.${explain(trace)}`);
    assert.equal(psp.captures.length, 1, `Kestrel made ${psp.captures.length} captures.${explain(trace)}`);
  });
});
