// What must hold in every schedule of the checkout: properties the harness
// judges on the world's cache, the PSP's charges and the trace.

import { STOCK, ORDERS, stockKey, skuOf, bagsOf } from './orders.mjs';

/** `n word`, in the plural unless n is 1. */
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The SKUs a schedule sold, each with its orders (deliveries). */
function bySku(world) {
  const groups = new Map();
  for (const d of world.deliveries) {
    const sku = skuOf(d.job);
    if (!groups.has(sku)) groups.set(sku, []);
    groups.get(sku).push(d);
  }
  return groups;
}

/** Charges the PSP approved (a declined card is charged nothing). */
function paidCharges(world) {
  return world.sends.filter((s) => s.target === 'psp' && s.method === 'charge' && !ORDERS[s.key]?.declined);
}
/** Never more customers charged for a coffee than bags were loaded, never one order twice. */
export const noOversell = {
  end(world) {
    const paid = paidCharges(world);
    for (const [order] of Object.entries(ORDERS)) {
      const twice = paid.filter((c) => c.key === order);
      if (twice.length > 1) {
        world.violate('noOversell', `${order} was charged ${twice.length} times; an order is charged once`, twice.map((c) => c.step));
        return;
      }
    }
    for (const sku of bySku(world).keys()) {
      const charged = paid.filter((c) => skuOf(c.key) === sku);
      const bags = charged.reduce((n, c) => n + bagsOf(c.key), 0);
      if (bags <= STOCK[sku]) continue;
      world.violate('noOversell',
        `${plural(STOCK[sku], 'bag')} of ${sku} ${STOCK[sku] === 1 ? 'was' : 'were'} on sale, but customers were charged for ${bags}: `
        + `${charged.map((c) => `${c.key} (pod ${c.worker})`).join(', ')}`,
        charged.map((c) => c.step));
      return;
    }
  },
};

/**
 * Every buyer with a good card is served while bags remain: contention is no
 * reason to refuse. A buyer whose card was declined, whose charge the PSP
 * failed, or whose reservation the cache failed may go without; when such an
 * order was served all the same (a fix that repeats a failed call may serve
 * it), its bag is not there for the others.
 */
export const noNeedlessRefusal = {
  end(world) {
    for (const [sku, orders] of bySku(world)) {
      const mayGoWithout = (d) => ORDERS[d.job].declined || ORDERS[d.job].pspFails || ORDERS[d.job].cacheFails;
      const buyers = orders.filter((d) => !mayGoWithout(d));
      const left = STOCK[sku] - orders.filter((d) => mayGoWithout(d) && d.outcome === 'confirmed').length;
      // As many buyers as the bags left can serve, the smallest orders first.
      let want = 0;
      let room = left;
      for (const size of buyers.map((d) => bagsOf(d.job)).sort((a, b) => a - b)) {
        if (size > room) break;
        room -= size;
        want += 1;
      }
      const served = buyers.filter((d) => d.outcome === 'confirmed');
      if (served.length >= want) continue;
      const turned = buyers.filter((d) => d.outcome !== 'confirmed');
      world.violate('noNeedlessRefusal',
        `${plural(left, 'bag')} of ${sku} for ${plural(buyers.length, 'buyer')} with a good card, `
        + `but only ${plural(served.length, 'order')} confirmed: `
        + `${turned.map((d) => `${d.job} (pod ${d.worker}) ended with ${JSON.stringify(d.outcome ?? 'no answer')}`).join(', ')}, `
        + `although ${plural(left - served.length, 'bag')} ${left - served.length === 1 ? 'was' : 'were'} still unsold`);
      return;
    }
  },
};

/** What each schedule's stock counters held, step by step: world → key → [{ step, value }]. */
const counterHistory = new WeakMap();

/** What `sku`'s counter held right after trace step `upTo` (the bags loaded, before any write). */
function counterAt(world, sku, upTo) {
  let value = String(STOCK[sku]);
  for (const change of counterHistory.get(world)?.get(stockKey(sku)) ?? []) {
    if (change.step > upTo) break;
    value = change.value;
  }
  return value;
}

/**
 * Once every checkout has answered, the counter holds the bags loaded minus the
 * bags sold. It is judged at the moment the last checkout answered, not after
 * calls still in flight then have landed: a release that is sent but not
 * awaited lets the answer overtake it, and a buyer who looks at that moment
 * sees a counter that lies.
 */
export const stockConserved = {
  onStore(world, op, before, value, step) {
    const key = op.args?.[0];
    if (typeof key !== 'string' || !key.startsWith('stock:')) return;
    if (!counterHistory.has(world)) counterHistory.set(world, new Map());
    const changes = counterHistory.get(world);
    if (!changes.has(key)) changes.set(key, []);
    changes.get(key).push({ step: step.step, value: world.store.entry(key, world.now)?.value ?? null });
  },
  end(world) {
    const answers = world.trace.filter((s) => s.operation === 'handle');
    const last = answers.at(-1);
    if (!last) return;
    for (const [sku, orders] of bySku(world)) {
      const key = stockKey(sku);
      const sold = orders.filter((d) => d.outcome === 'confirmed').reduce((n, d) => n + bagsOf(d.job), 0);
      const expected = STOCK[sku] - sold;
      const held = counterAt(world, sku, last.step);
      if (held === String(expected)) continue;
      const diff = Number(held) - expected;
      const meaning = held === null || !Number.isInteger(Number(held))
        ? 'the counter itself is gone or broken'
        : diff > 0
          ? `${plural(diff, 'bag')} too many: the shop would sell ${diff === 1 ? 'a bag that does' : 'bags that do'} not exist`
          : `${plural(-diff, 'bag')} too few: unsold bags can no longer be bought`;
      const late = world.trace.filter((s) => s.key === key && s.operation !== 'get' && s.step > last.step);
      const landing = late.length > 0
        ? `; ${plural(late.length, 'write')} to it only landed after that answer (step ${late.map((s) => s.step).join(', ')}): an answer must wait for its writes`
        : '';
      world.violate('stockConserved',
        `when the last checkout answered (step ${last.step}), ${key} held ${JSON.stringify(held)}, but ${STOCK[sku]} loaded − ${sold} sold = ${expected}; ${meaning}${landing}`,
        [...world.trace.filter((s) => s.key === key && s.operation !== 'get' && s.step <= last.step), last, ...late]);
      return;
    }
  },
};
