// Hidden tests for "Forty bags, forty-two customers".
//
// Each scenario is explored in every schedule: every order in which the pods'
// calls to the inventory cache and the PSP can arrive, and every point at which
// a timer can fire, within the fault model of the repository README, which the
// suite receives as `faultModel` and derives its world from: pods share only
// the cache and the PSP, a cache call completes within 1 s, a charge takes
// 300–800 ms and may fail having done nothing, the cache runs one command at a
// time, nothing is held across the PSP call.
//
// The two pods are named after the production pods of the incident. Every
// scenario keeps two checkouts in flight at a time: each extra concurrent
// worker multiplies the schedules to explore.

const CACHE = ['get', 'set', 'setIfAbsent', 'compareAndSet', 'compareAndDelete', 'incrBy', 'delete'];

/** The cache calls that take something: a reservation, or a lock before one. */
const WRITES = ['set', 'setIfAbsent', 'compareAndSet', 'incrBy'];

/** Bags loaded for each SKU when its sale opens: the initial `stock:<sku>`. */
const STOCK = {
  'FH-LOT7-GESHA-250': 1, // the last bag of the incident
  'FH-LOT9-SIDRA-250': 2, // the last two bags
  'FH-LOT8-BOURBON-250': 2, // a declined card among the buyers
  'FH-HOUSE-ESPRESSO-1KG': 40, // plenty
  'FH-LOT5-PACAMARA-250': 2, // a charge the PSP fails among the buyers
  'FH-LOT3-CATURRA-250': 1, // the cache fails a reservation among the buyers of the last bag
  'FH-LOT4-TYPICA-250': 1, // a two-bag order races a one-bag order for the last bag
  'FH-LOT6-GEISHA-250': 1, // a declined card's bag comes back while two others want it
};

/**
 * Every order a scenario places: which coffee, how many bags (1 unless said),
 * whether the bank refuses the card, and whether the PSP fails the order's
 * first charge call (an error that charged nothing, as the fault model allows).
 */
const ORDERS = {
  'FH-2603-48861': { sku: 'FH-LOT7-GESHA-250' },
  'FH-2603-48863': { sku: 'FH-LOT7-GESHA-250' },
  'FH-2603-50112': { sku: 'FH-LOT9-SIDRA-250' },
  'FH-2603-50114': { sku: 'FH-LOT9-SIDRA-250' },
  'FH-2603-50117': { sku: 'FH-LOT9-SIDRA-250' },
  'FH-2603-48870': { sku: 'FH-LOT8-BOURBON-250', declined: true },
  'FH-2603-48872': { sku: 'FH-LOT8-BOURBON-250' },
  'FH-2603-48402': { sku: 'FH-HOUSE-ESPRESSO-1KG' },
  'FH-2603-48405': { sku: 'FH-HOUSE-ESPRESSO-1KG' },
  'FH-2603-48880': { sku: 'FH-LOT5-PACAMARA-250', pspFails: true },
  'FH-2603-48882': { sku: 'FH-LOT5-PACAMARA-250' },
  'FH-2603-48890': { sku: 'FH-LOT3-CATURRA-250', cacheFails: true },
  'FH-2603-48891': { sku: 'FH-LOT3-CATURRA-250' },
  'FH-2603-51020': { sku: 'FH-LOT4-TYPICA-250', quantity: 2 },
  'FH-2603-51022': { sku: 'FH-LOT4-TYPICA-250' },
  'FH-2603-51030': { sku: 'FH-LOT6-GEISHA-250', declined: true },
  'FH-2603-51031': { sku: 'FH-LOT6-GEISHA-250' },
  'FH-2603-51033': { sku: 'FH-LOT6-GEISHA-250' },
};

const stockKey = (sku) => `stock:${sku}`;
const skuOf = (order) => ORDERS[order]?.sku;
/** The bags an order asks for. */
const bagsOf = (order) => ORDERS[order]?.quantity ?? 1;
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The cache contents when a scenario's sale opens. */
function opened(...skus) {
  return Object.fromEntries(skus.map((sku) => [stockKey(sku), String(STOCK[sku])]));
}

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
const noOversell = {
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
const noNeedlessRefusal = {
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
const stockConserved = {
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

/** The order behind a job, as the storefront sends it to POST /checkouts. */
function checkoutRequest(orderId) {
  const order = ORDERS[orderId];
  const tail = orderId.slice(-5);
  return {
    orderId,
    customerId: `cus_${tail}`,
    sku: order.sku,
    quantity: bagsOf(orderId),
    amountMinor: 2400 * bagsOf(orderId),
    currency: 'EUR',
    paymentMethod: order.declined ? 'pm_card_declined' : `pm_${tail}`,
  };
}

/** The fault model's remote `name`, or a clear error when the run was given none. */
function remote(faultModel, name) {
  const model = faultModel?.remotes?.[name];
  if (!model) throw new Error(`this suite explores the dossier's fault model, which says nothing about the remote "${name}"`);
  return model;
}

/** Whether the fault model lets calls of `method` to a remote fail having done nothing. */
function mayFailHarmlessly(model, method) {
  return model.failures.some((f) => f.kind === 'error' && f.effect === 'none' && (!f.calls || f.calls.includes(method)));
}

export default ({ faultModel }) => {
  const store = remote(faultModel, 'store');
  const psp = remote(faultModel, 'psp');
  const chargesFail = mayFailHarmlessly(psp, 'charge');
  return {
    subject: {
      module: 'src/checkout/checkout.js',
      factory: 'createCheckout',
      method: 'handle',
      deps: {
        podId: { $: 'worker' },
        store: { $: 'remote', name: 'store', methods: CACHE },
        psp: { $: 'remote', name: 'psp', methods: ['charge'] },
        clock: { $: 'clock' },
      },
      message: (job) => checkoutRequest(job),
      // The storefront does not retry a checkout: every answer ends it.
      acked: () => true,
    },
    effects: [
      {
        target: 'psp',
        method: 'charge',
        label: 'charge',
        // Every charge takes as long as the fault model says a charge takes.
        latencyMs: psp.latencyMs,
        reply: (args, call) => (ORDERS[call.job]?.declined
          ? { id: `ch_${call.id.replace(/\W/g, '')}`, status: 'declined', decline_code: 'insufficient_funds' }
          : { id: `ch_${call.id.replace(/\W/g, '')}`, status: 'succeeded' }),
        // The PSP fails the first charge call of an order so marked, having
        // charged nothing (the fault model's only kind of PSP failure); a repeat
        // with the same idempotency key goes through.
        fail: (args, call) => chargesFail && ORDERS[call.job]?.pspFails && call.failures === 0
          && 'Kestrel Pay answered HTTP 503: service unavailable, nothing was charged',
      },
    ],
    // Locks, if a fix takes any, live under lock:…; no built-in claim property is judged here.
    claimKeys: '^lock:',
    properties: { noOversell, noNeedlessRefusal, stockConserved },
    // One delay (a timer or delivery overtaking a call in flight) per schedule is
    // enough to expose every sleep-and-recheck variant, and it keeps fixes that
    // wait for a lock with a sleep loop (correct, if slower) well inside the time
    // limit. After the first failure of a scenario, 20 more schedules suffice.
    // Charges that take 300–800 ms let many cache calls land while one is in
    // flight: the reference needs up to about 1400 steps of work in a scenario,
    // and a correct fix that takes a short lock around the read and the write
    // (polling for it with a sleep) up to about 3900, hence 8000.
    limits: { maxLatencyMs: store.latencyMs[1], maxDelays: 1, maxSchedulesAfterFailure: 20, maxWork: 8000, horizonMs: 60_000 },
    scenarios: [
      {
        name: 'two buyers for the last bag at once',
        store: opened('FH-LOT7-GESHA-250'),
        // One bag ends every race early: a lock-taking fix needs about 1500 steps here.
        limits: { maxWork: 4000 },
        deliveries: [
          { worker: '2xkqp', job: 'FH-2603-48861', at: 0 },
          { worker: 'v8lmn', job: 'FH-2603-48863', at: 0 },
        ],
        tests: [
          { name: 'the last bag is sold to one customer, never two', property: 'noOversell' },
          { name: 'one of two buyers for the last bag gets it', property: 'noNeedlessRefusal' },
          { name: 'after the last bag the counter reads 0', property: 'stockConserved' },
        ],
      },
      {
        name: 'three buyers for the last two bags, two at a time',
        // The first two buyers both get a bag, so both must reach the PSP: each
        // charge is held there until the other order arrives too. A fix that
        // holds a lock across the charge, for this SKU or for every checkout,
        // never gets there.
        barrier: true,
        store: opened('FH-LOT9-SIDRA-250'),
        deliveries: [
          { worker: '2xkqp', job: 'FH-2603-50112', at: 0 },
          { worker: 'v8lmn', job: 'FH-2603-50114', at: 0 },
          // The next checkout reaches 2xkqp as soon as it answered the first.
          { worker: '2xkqp', job: 'FH-2603-50117', after: 0, delayMs: 0 },
        ],
        tests: [
          { name: 'two bags are never sold to three customers', property: 'noOversell' },
          { name: 'both of the last two bags are sold', property: 'noNeedlessRefusal' },
          { name: 'after the last two bags the counter reads 0', property: 'stockConserved' },
          { name: 'two buyers of the same coffee are charged in parallel', property: 'inFlightTogether' },
        ],
      },
      {
        // A reservation that takes the bags first and gives them back when the
        // counter went below zero refuses the one-bag order whenever the two-bag
        // order's decrement lands first: the counter reads -1 with a bag unsold.
        name: 'a two-bag order and a one-bag order for the last bag',
        store: opened('FH-LOT4-TYPICA-250'),
        // The reference needs 160 steps of work, a fix with a short lock 1 520.
        limits: { maxWork: 4000 },
        deliveries: [
          { worker: '2xkqp', job: 'FH-2603-51020', at: 0 },
          { worker: 'v8lmn', job: 'FH-2603-51022', at: 0 },
        ],
        tests: [
          { name: 'the one-bag order gets the last bag, whatever the two-bag order does meanwhile', property: 'noNeedlessRefusal' },
        ],
      },
      {
        // The declined card's bag comes back while another buyer's reservation is
        // in flight: a counter that goes below zero for a moment (take, then give
        // back) refuses the next buyer although the bag is back on sale.
        name: 'a declined card gives its bag back while two more buyers want it',
        store: opened('FH-LOT6-GEISHA-250'),
        // The reference needs 1 340 steps of work, a fix with a short lock 3 970.
        deliveries: [
          { worker: '2xkqp', job: 'FH-2603-51030', at: 0 },
          { worker: 'v8lmn', job: 'FH-2603-51033', at: 0 },
          { worker: '2xkqp', job: 'FH-2603-51031', after: 0, delayMs: 0 },
        ],
        tests: [
          { name: "a declined card's bag is sold to one of the two buyers after it", property: 'noNeedlessRefusal' },
          { name: 'the counter reads 0 once the bag given back is sold', property: 'stockConserved' },
        ],
      },
      {
        name: 'two buyers of the same coffee while plenty is left',
        store: opened('FH-HOUSE-ESPRESSO-1KG'),
        deliveries: [
          { worker: '2xkqp', job: 'FH-2603-48402', at: 0 },
          { worker: 'v8lmn', job: 'FH-2603-48405', at: 0 },
        ],
        tests: [
          { name: 'nobody is turned away while bags remain', property: 'noNeedlessRefusal' },
          { name: 'every sale takes exactly one bag off the counter', property: 'stockConserved' },
        ],
      },
      {
        name: 'a declined card while another buyer checks out',
        store: opened('FH-LOT8-BOURBON-250'),
        deliveries: [
          { worker: '2xkqp', job: 'FH-2603-48870', at: 0 },
          { worker: 'v8lmn', job: 'FH-2603-48872', at: 0 },
        ],
        tests: [
          { name: "a declined card's bag goes back on sale", property: 'stockConserved' },
          { name: 'the buyer with a good card is served', property: 'noNeedlessRefusal' },
        ],
      },
      {
        name: 'the PSP fails a charge while another buyer checks out',
        // The fault model lets a charge fail having charged nothing; the
        // checkout then answers with an error and must put the bag back first.
        store: opened('FH-LOT5-PACAMARA-250'),
        deliveries: [
          { worker: '2xkqp', job: 'FH-2603-48880', at: 0 },
          { worker: 'v8lmn', job: 'FH-2603-48882', at: 0 },
        ],
        tests: [
          { name: 'the bag of a charge that failed goes back on sale', property: 'stockConserved' },
          { name: 'the buyer whose charge went through is served', property: 'noNeedlessRefusal' },
        ],
      },
      {
        // The fault model lets a cache call fail having done nothing: one
        // buyer's first write of each kind fails (its reservation, whatever
        // call makes it, and anything it writes before), and that checkout may
        // answer with an error, while the other buyer goes for the same last bag.
        name: 'the cache fails a reservation while another buyer wants the last bag',
        store: opened('FH-LOT3-CATURRA-250'),
        faults: WRITES.map((method) => ({
          target: 'store', method, fail: (args, call) => ORDERS[call.job]?.cacheFails && call.failures === 0 && 'cache timed out',
        })),
        deliveries: [
          { worker: '2xkqp', job: 'FH-2603-48890', at: 0 },
          { worker: 'v8lmn', job: 'FH-2603-48891', at: 0 },
        ],
        tests: [
          { name: 'a reservation the cache failed never costs or sells a bag', property: 'stockConserved' },
          { name: 'the last bag is never sold twice when the cache fails a write', property: 'noOversell' },
          { name: 'the other buyer still gets the last bag', property: 'noNeedlessRefusal' },
        ],
      },
    ],
  };
};
