// The flash-sale test: reproduces the oversold Lot 7 drop.
//
// Two checkout pods share one inventory cache and one PSP, as in production.
// Nothing here depends on real time: each call to the cache or the PSP waits
// one turn of the event loop before it arrives, like a network round trip,
// so while one pod's call is on the wire the other pod runs. That is enough
// for the two pods to interleave the same way on every run.
//
// Time is virtual. It stands still while any call is on the wire; once every
// pod is asleep or done, the clock moves to the earliest wake-up time and
// wakes whoever sleeps until then. A 5 ms wait ends before a 900 ms one, as
// it would in production.

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

/**
 * Virtual time for one drop, starting at the drop.
 *
 * `roundTrip()` is how every simulated call travels: one turn of the event
 * loop, during which the clock stands still. `clockFor(pod)` is the pod's view
 * of the clock; its sleeps are written to `trace` when they end.
 */
function dropTime(trace, start = Date.parse('2026-03-21T09:00:41.200Z')) {
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
    clockFor: (pod) => ({
      now: () => now,
      sleep: (ms) => new Promise((resolve) => {
        const at = now + Math.max(0, Number(ms) || 0);
        sleepers.push({
          at,
          order: slept++,
          wake: () => {
            trace.push(`${pod.padEnd(6)} sleep(${ms}) -> woke at +${at - start} ms`);
            resolve();
          },
        });
        if (!ticking) tick();
      }),
    }),
  };
}

/** A PSP that approves every card but one, and remembers every charge. */
function recordingPsp(roundTrip) {
  const charges = [];
  return {
    charges,
    async charge(request) {
      await roundTrip();
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
  const time = dropTime(trace);
  const store = createMemoryStore({ clock: time.clockFor('cache'), beforeOperation: time.roundTrip });
  await loadSaleStock({ store, lots: [{ sku: SKU, units }] });
  const psp = recordingPsp(time.roundTrip);
  const pod = (podId) => createCheckout({
    podId,
    store: traced(store, CACHE_METHODS, podId, trace),
    psp: traced(psp, ['charge'], podId, trace),
    clock: time.clockFor(podId),
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
