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

/** The counter's value once the schedule is over, every call landed. */
function counterAtEnd(world, sku) {
  return world.store.entry(stockKey(sku), world.now)?.value ?? null;
}

/** The answers a checkout gives when it does not throw (README: outcome). */
const ANSWERS = ['confirmed', 'sold-out', 'declined'];

/**
 * Bags of `sku` left off sale because the cache failed their give-back and it
 * was not repeated: the bags of orders whose give-back the scenario fails and
 * whose checkout threw ("try again, you were not charged"), when the counter
 * ends short of exactly that many. The README accepts that undersell (the
 * nightly reconciliation puts them back); an answer of "declined" says the
 * bags are back on sale, and a counter that ends anywhere else has no excuse.
 */
function strandedBags(world, sku, orders, sold) {
  const bags = orders.filter((d) => ORDERS[d.job].giveBackFails && !ANSWERS.includes(d.outcome)).reduce((n, d) => n + bagsOf(d.job), 0);
  return bags > 0 && counterAtEnd(world, sku) === String(STOCK[sku] - sold - bags) ? bags : 0;
}

/** What a counter too low says of declined orders whose give-back the cache failed, or ''. */
function declinedWithoutGiveBack(orders) {
  const declined = orders.filter((d) => ORDERS[d.job].giveBackFails && d.outcome === 'declined');
  if (declined.length === 0) return '';
  return ` (${declined.map((d) => d.job).join(', ')} answered "declined", which tells the storefront its bags are back on sale: `
    + 'a checkout that could not put them back throws, so that the customer is told to try again)';
}

/** Bags of `sku` that confirmed orders took. */
function soldBags(orders) {
  return orders.filter((d) => d.outcome === 'confirmed').reduce((n, d) => n + bagsOf(d.job), 0);
}

/** Never more bags of a coffee charged for than were loaded, whatever the orders' quantities; never one order twice. */
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
 * reason to refuse, and no order answers "sold-out" unless its coffee's
 * counter held fewer bags than it asks for at some moment while it was handled. A buyer whose card was declined, whose charge the PSP
 * failed, or whose reservation the cache failed may go without; when such an
 * order was served all the same (a fix that repeats a failed call may serve
 * it), its bag is not there for the others. Nor is a bag whose give-back the
 * cache failed, while it stays off sale (strandedBags).
 */
export const noNeedlessRefusal = {
  end(world) {
    for (const [sku, orders] of bySku(world)) {
      const refused = orders.find((d) => d.outcome === 'sold-out' && !shortWhileHandled(world, d));
      if (refused) {
        world.violate('noNeedlessRefusal',
          `${refused.job} (pod ${refused.worker}) answered "sold-out", but ${sku}'s counter held at least `
          + `${plural(bagsOf(refused.job), 'bag')} all the while it was handled: a checkout answers "sold-out" only when it found `
          + 'fewer bags than it asked for, and a cache call that failed is no such finding (throwing makes the storefront say "try again")');
        return;
      }
      const mayGoWithout = (d) => ORDERS[d.job].declined || ORDERS[d.job].pspFails || ORDERS[d.job].cacheFails || ORDERS[d.job].cacheWriteFails;
      const buyers = orders.filter((d) => !mayGoWithout(d));
      const left = STOCK[sku] - orders.filter((d) => mayGoWithout(d) && d.outcome === 'confirmed').length
        - strandedBags(world, sku, orders, soldBags(orders));
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

/** Whether the counter of `d`'s coffee held fewer bags than `d` asks for at some moment while `d` was handled. */
function shortWhileHandled(world, d) {
  const sku = skuOf(d.job);
  const handled = (operation) => world.trace.find((s) => s.operation === operation && s.key === d.job && s.worker === d.worker);
  const [start, end] = [handled('receive'), handled('handle')];
  if (!start || !end) return true;
  const values = [counterAt(world, sku, start.step),
    ...world.store.history(stockKey(sku)).filter((h) => h.step.step > start.step && h.step.step < end.step).map((h) => h.value)];
  return values.some((value) => !(Number(value) >= bagsOf(d.job)));
}

/** What `sku`'s counter held right after trace step `upTo` (the bags loaded, before any write). */
function counterAt(world, sku, upTo) {
  let value = String(STOCK[sku]);
  for (const call of world.store.history(stockKey(sku))) {
    if (call.step.step > upTo) break;
    value = call.value;
  }
  return value;
}

/**
 * Once every checkout has answered, the counter holds the bags loaded minus the
 * bags sold (less bags whose give-back the cache failed, while they stay off
 * sale: strandedBags). It is judged at the moment the last checkout answered,
 * not after calls still in flight then have landed: a release that is sent but
 * not awaited lets the answer overtake it, and a buyer who looks at that
 * moment sees a counter that lies.
 */
export const stockConserved = {
  end(world) {
    const answers = world.trace.filter((s) => s.operation === 'handle');
    const last = answers.at(-1);
    if (!last) return;
    for (const [sku, orders] of bySku(world)) {
      const key = stockKey(sku);
      const sold = soldBags(orders);
      const stranded = strandedBags(world, sku, orders, sold);
      const expected = STOCK[sku] - sold - stranded;
      const held = counterAt(world, sku, last.step);
      if (held === String(expected)) continue;
      const diff = Number(held) - expected;
      const meaning = held === null || !Number.isInteger(Number(held))
        ? 'the counter itself is gone or broken'
        : diff > 0
          ? `${plural(diff, 'bag')} too many: the shop would sell ${diff === 1 ? 'a bag that does' : 'bags that do'} not exist`
          : `${plural(-diff, 'bag')} too few: unsold bags can no longer be bought${declinedWithoutGiveBack(orders)}`;
      const late = world.trace.filter((s) => s.key === key && s.operation !== 'get' && s.step > last.step);
      const landing = late.length > 0
        ? `; ${plural(late.length, 'write')} to it only landed after that answer (step ${late.map((s) => s.step).join(', ')}): an answer must wait for its writes`
        : '';
      world.violate('stockConserved',
        `when the last checkout answered (step ${last.step}), ${key} held ${JSON.stringify(held)}, but ${STOCK[sku]} loaded − ${sold} sold${stranded > 0 ? ` − ${stranded} whose give-back failed` : ''} = ${expected}; `
        + `${meaning}${landing}`,
        [...world.trace.filter((s) => s.key === key && s.operation !== 'get' && s.step <= last.step), last, ...late]);
      return;
    }
  },
};
