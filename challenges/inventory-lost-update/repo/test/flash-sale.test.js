// The flash-sale test: reproduces the oversold Lot 7 drop.
//
// Two checkout pods share one inventory cache and one PSP, as in production.
// Nothing here depends on real time: each call to the cache or the PSP waits
// one turn of the event loop before it arrives, like a network round trip,
// so while one pod's call is on the wire the other pod runs. That is enough
// for the two pods to interleave the same way on every run.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';

import { createCheckout } from '../src/checkout/checkout.js';
import { loadSaleStock } from '../src/inventory/stock-loader.js';
import { createMemoryStore } from '../src/persistence/memory-store.js';

const SKU = 'FH-LOT7-GESHA-250';
const STOCK_KEY = `stock:${SKU}`;
const CACHE_METHODS = ['get', 'set', 'setIfAbsent', 'compareAndSet', 'compareAndDelete', 'incrBy', 'delete'];
const DECLINED_CARD = 'pm_card_declined';

/** A clock that stands still unless someone sleeps on it. Starts at the drop. */
function dropClock(start = Date.parse('2026-03-21T09:00:41.200Z')) {
  let now = start;
  return {
    now: () => now,
    async sleep(ms) {
      await nextTurn();
      now += ms;
    },
  };
}

/** A PSP that approves every card but one, and remembers every charge. */
function recordingPsp() {
  const charges = [];
  return {
    charges,
    async charge(request) {
      await nextTurn();
      if (request.paymentMethod === DECLINED_CARD) {
        return { id: `ch_${charges.length + 100}`, status: 'declined', decline_code: 'insufficient_funds' };
      }
      charges.push(request);
      return { id: `ch_${charges.length}`, status: 'succeeded' };
    },
  };
}

/**
 * Wraps a dependency for one pod: every call is written to `trace` once it
 * has been answered, so the trace lists calls in the order they took effect.
 */
function traced(target, methods, pod, trace) {
  const view = {};
  for (const method of methods) {
    view[method] = async (...args) => {
      const result = await target[method](...args);
      const shown = method === 'charge' ? [args[0].orderId] : args.slice(0, method === 'get' ? 1 : 3);
      trace.push(`${pod.padEnd(6)} ${method}(${shown.map((a) => JSON.stringify(a)).join(', ')}) -> ${showResult(result)}`);
      return result;
    };
  }
  return view;
}

function showResult(result) {
  if (result === undefined || result === null) return 'null';
  if (typeof result === 'object') return `${result.status} ${result.id}`;
  return JSON.stringify(result);
}

/** A checkout request as the storefront sends it. */
function order(orderId, paymentMethod = `pm_${orderId.slice(-5)}`) {
  return { orderId, customerId: `cus_${orderId.slice(-5)}`, sku: SKU, quantity: 1, amountMinor: 2400, currency: 'EUR', paymentMethod };
}

/** Two pods, `units` bags of Lot 7 on sale, and a shared trace. */
async function drop(units) {
  const trace = [];
  const clock = dropClock();
  const store = createMemoryStore({ clock, beforeOperation: () => nextTurn() });
  await loadSaleStock({ store, lots: [{ sku: SKU, units }] });
  const psp = recordingPsp();
  const pod = (podId) => createCheckout({
    podId,
    store: traced(store, CACHE_METHODS, podId, trace),
    psp: traced(psp, ['charge'], podId, trace),
    clock,
  });
  return { trace, store, psp, a: pod('2xkqp'), b: pod('v8lmn') };
}

function story(trace) {
  return `\n\nWhat happened, in order:\n  ${trace.join('\n  ')}\n`;
}

describe('the flash-sale test', () => {
  test('two buyers for the last bag: one is charged, the other is told it is sold out', async () => {
    const { trace, store, psp, a, b } = await drop(1);

    const outcomes = await Promise.all([a.handle(order('FH-2603-48861')), b.handle(order('FH-2603-48863'))]);

    assert.equal(psp.charges.length, 1,
      `1 bag was on sale but ${psp.charges.length} customers were charged` +
      ` (outcomes: ${outcomes.join(', ')}).${story(trace)}`);
    assert.deepEqual([...outcomes].sort(), ['confirmed', 'sold-out'], `one order confirmed, one sold out.${story(trace)}`);
    assert.equal(store.snapshot()[STOCK_KEY], '0', `the counter ends at 0.${story(trace)}`);
  });

  test('two buyers while plenty is left: both are served and the counter drops by two', async () => {
    const { trace, store, a, b } = await drop(40);

    const outcomes = await Promise.all([a.handle(order('FH-2603-48402')), b.handle(order('FH-2603-48405'))]);

    assert.deepEqual(outcomes, ['confirmed', 'confirmed'], `nobody is turned away while bags remain.${story(trace)}`);
    assert.equal(store.snapshot()[STOCK_KEY], '38',
      `40 bags, 2 sold: the counter must read 38, it reads ${store.snapshot()[STOCK_KEY]}.${story(trace)}`);
  });

  test('a declined card puts its bag back on sale for the next buyer', async () => {
    const { trace, store, psp, a, b } = await drop(1);

    assert.equal(await a.handle(order('FH-2603-48870', DECLINED_CARD)), 'declined');
    assert.equal(store.snapshot()[STOCK_KEY], '1', `the declined order's bag is back.${story(trace)}`);
    assert.equal(await b.handle(order('FH-2603-48872')), 'confirmed', `the next buyer gets it.${story(trace)}`);
    assert.equal(psp.charges.length, 1);
    assert.equal(store.snapshot()[STOCK_KEY], '0');
  });

  test('once sold out, a checkout is refused without a charge', async () => {
    const { trace, store, psp, a } = await drop(0);

    assert.equal(await a.handle(order('FH-2603-48990')), 'sold-out', story(trace));
    assert.equal(psp.charges.length, 0);
    assert.equal(store.snapshot()[STOCK_KEY], '0');
  });
});
