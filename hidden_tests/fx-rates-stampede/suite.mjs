// Hidden tests for 'Checkout showed "rate unavailable" every ten minutes'.
//
// The harness loads src/worker.js once per simulated process (blue, green) and
// explores every order in which their store and Ratewire calls can arrive and
// their timers fire, within the fault model of the repository README (and of
// fault_model in dossier.yaml, which this suite receives): two processes that
// share only the store, each handling several requests at once; store calls
// within 50 ms; Ratewire answering in 200 to 800 ms, 2 requests a second at
// most (429 over that), with outages (503); a process that dies at any point.
// The properties live in properties.mjs beside this one.

import {
  RECOVERED_AT_MS, answeredWithin, currenciesLoadedTogether, currencyOf, noWaitAfterFailure,
  oneRatewireRequestPerCurrency, servedWhenRatewireIsUp, waitersServedAfterFailure,
} from './properties.mjs';

/** The rates Ratewire quotes, units per USD. */
const RATES = { EUR: 0.9231, GBP: 0.7874 };

/** Ratewire's plan: 2 requests a second for our API key (README). */
const PER_SECOND = 2;

/** When the first page after the outage arrives, in the failure scenario: it loads the rate again. */
const RELOAD_AT_MS = 1_200;

/**
 * How many store calls, each at its slowest, the last pages of the failure
 * scenario leave that load beside its Ratewire request before they arrive:
 * more than a load makes, so that it is over by then however slow every call.
 */
const STORE_CALLS_PER_LOAD = 10;

/** The store operations src/store/remote-store.js offers. */
const STORE = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'delete'];

/** The fault model's remote `name`, or a clear error when the run was given none. */
function remote(faultModel, name) {
  const model = faultModel?.remotes?.[name];
  if (!model) throw new Error(`this suite explores the dossier's fault model, which says nothing about the remote "${name}"`);
  return model;
}

export default ({ services, faultModel }) => {
  const store = remote(faultModel, 'store');
  const ratewire = remote(faultModel, 'ratewire');
  // The store is sized for each waiting request to call it at most this often (README).
  const pollMs = store.minPollIntervalMs;
  const provider = ({ reply = (args) => quote(args[0]), latencyMs = ratewire.latencyMs } = {}) => ({
    ...services.rateLimited({ methods: ['latest'], perSecond: PER_SECOND, reply, label: 'Ratewire request', latencyMs }),
    describe: (method, [currency], value) => `${currency} ${value.rate}`,
  });
  const quote = (currency) => ({ base: 'USD', currency, rate: RATES[currency], asOf: '2026-11-27T14:00:00.000Z' });
  // The last pages of the failure scenario find the rate the reload cached; a
  // cached rate is one store read away.
  const cachedAtMs = RELOAD_AT_MS + ratewire.latencyMs[1] + STORE_CALLS_PER_LOAD * store.latencyMs[1];
  const cachedAtOnce = answeredWithin('cachedAtOnce', cachedAtMs, store.latencyMs[1],
    'a page whose rate is cached should get it from the store, without waiting for anyone');
  return {
    subject: {
      module: 'src/worker.js',
      factory: 'createRatesWorker',
      method: 'handle',
      deps: {
        workerId: { $: 'worker' },
        store: { $: 'remote', name: 'store', methods: STORE },
        provider: { $: 'remote', name: 'ratewire', methods: ['latest'] },
        clock: { $: 'clock' },
      },
      message: (job) => ({ requestId: job, currency: currencyOf(job) }),
      acked: (outcome) => outcome?.status === 'ok' && outcome.rate === RATES[outcome.currency],
    },
    services: { ratewire: provider() },
    properties: { oneRatewireRequestPerCurrency, servedWhenRatewireIsUp, currenciesLoadedTogether, noWaitAfterFailure, cachedAtOnce, waitersServedAfterFailure },
    // The work budgets leave room for fixes that look at the store every 50 ms
    // (the README's limit), which need several times the steps of one that
    // looks every 300 ms, as the reference fix does. The clock may move on once
    // per schedule while a call is in flight: a store call can take its 50 ms,
    // a Ratewire request its 800 ms, while timers fire and pages arrive.
    limits: { maxLatencyMs: store.latencyMs[1], maxDelays: 1, maxWork: 2_000, maxCallsPerDelivery: 120, maxSchedulesAfterFailure: 20 },
    scenarios: [
      {
        // Deliveries that do not wait for each other: each process handles two
        // at once, as one process handles concurrent requests. The later two
        // arrive while the first load is in flight, at odd offsets: off the
        // ticks of the usual polling intervals, so that a fix that polls often
        // (every 50 ms, as the README allows) still has few orders to explore.
        // Every call of one process depends on every other, so one slow call
        // here multiplies the orders past any budget (such a fix went from
        // about 700 steps of work to over 60 000): here the clock waits for
        // calls in flight, at the two paces (every call at its quickest, then
        // at its slowest: that fix needs about 2 300 steps for both); the next
        // scenario lets one be slow beside a page that waits for it.
        name: 'four pages ask for the EUR rate within 61 ms, with nothing cached',
        // A fix that looks every 50 ms and reads the store once more a look
        // needs about 6 000 steps, one that keeps the rate and a loading
        // placeholder under one key 7 100.
        limits: { maxDelays: 0, maxWork: 14_000 },
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'green', job: 'eur-2', at: 0 },
          { worker: 'blue', job: 'eur-3', at: 37 },
          { worker: 'green', job: 'eur-4', at: 61 },
        ],
        tests: [
          { name: 'every page asking for a rate gets it while Ratewire is up', property: 'allDeliveriesAcked' },
          { name: 'pages asking for one currency at once share one Ratewire request', property: 'oneRatewireRequestPerCurrency' },
          { name: 'no request keeps calling the store without end while pages wait for a rate', property: 'boundedCalls' },
          { name: `pages waiting for a rate look at the store at most every ${pollMs} ms`, property: 'pacedPolls' },
        ],
      },
      {
        name: 'Ratewire is slow while two processes wait for the EUR rate',
        limits: { maxWork: 8_000 },
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'green', job: 'eur-2', at: 0 },
        ],
        tests: [
          { name: 'every page gets its rate however long Ratewire takes', property: 'allDeliveriesAcked' },
          { name: 'a slow Ratewire answer is not requested twice', property: 'oneRatewireRequestPerCurrency' },
          { name: 'no request keeps calling the store without end while Ratewire is slow', property: 'boundedCalls' },
          { name: `pages waiting for a slow Ratewire answer look at the store at most every ${pollMs} ms`, property: 'pacedPolls' },
        ],
      },
      {
        // A page may ask at any moment while another page's load is under
        // way, right up to its end: between the load's last two store calls
        // too, when the rate is fetched but not yet cached; and one call may
        // be slow while the other page's timers fire. The reference needs
        // about 2 000 steps of work here, a page that polls every 50 ms 6 100.
        name: 'a page asks for the EUR rate at any moment while another page loads it',
        limits: { maxDelays: 1, maxWork: 10_000 },
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'green', job: 'eur-2', during: 0 },
        ],
        tests: [
          { name: 'a page that asks while the rate is loaded shares the Ratewire request', property: 'oneRatewireRequestPerCurrency' },
          { name: 'a page that asks while the rate is loaded gets it', property: 'allDeliveriesAcked' },
        ],
      },
      {
        name: 'pages ask for EUR and GBP at once',
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'green', job: 'gbp-1', at: 0 },
        ],
        tests: [
          { name: 'two currencies can be loaded at the same time', property: 'currenciesLoadedTogether' },
          { name: 'pages asking for different currencies at once all get their rates', property: 'allDeliveriesAcked' },
        ],
      },
      {
        // Ratewire answers 503 until it recovers; a request that came during the
        // outage may get no rate, one that comes after must, as fast as if
        // nothing had failed, and the pages after that find it cached.
        name: 'Ratewire fails a request, then recovers',
        // The reference needs about 130 steps of work; a fix whose failed page
        // retries with a back-off while the next page shares its load, 3 500.
        limits: { maxWork: 6_000 },
        faults: [{ target: 'ratewire', method: 'latest', fail: (args, call) => call.at < RECOVERED_AT_MS && '503 Service Unavailable' }],
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'green', job: 'eur-2', at: RELOAD_AT_MS },
          { worker: 'blue', job: 'eur-3', at: cachedAtMs },
          { worker: 'green', job: 'eur-4', at: cachedAtMs },
        ],
        tests: [
          { name: 'a failed Ratewire request is not served to pages after Ratewire recovered', property: 'servedWhenRatewireIsUp' },
          { name: 'the next page after a failed Ratewire request asks Ratewire again without waiting', property: 'noWaitAfterFailure' },
          { name: 'a cached rate is answered at once, without waiting', property: 'cachedAtOnce' },
          { name: 'no request keeps calling the store without end after Ratewire failed', property: 'boundedCalls' },
        ],
      },
      {
        // The same, when the next page after the outage reaches the process
        // whose request failed: what that process remembers of the failure (a
        // breaker, a back-off) must not keep its next page from asking.
        name: 'Ratewire fails a request, then recovers, and the next page reaches the process whose request failed',
        // The reference needs about 90 steps of work; a fix whose failed page
        // retries with a back-off on the same process, 6 700.
        limits: { maxWork: 10_000 },
        faults: [{ target: 'ratewire', method: 'latest', fail: (args, call) => call.at < RECOVERED_AT_MS && '503 Service Unavailable' }],
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'blue', job: 'eur-2', at: RELOAD_AT_MS },
          { worker: 'green', job: 'eur-3', at: cachedAtMs },
        ],
        tests: [
          { name: 'the process whose Ratewire request failed serves its next page once Ratewire recovered', property: 'servedWhenRatewireIsUp' },
          { name: 'the next page on the process whose Ratewire request failed asks Ratewire again without waiting', property: 'noWaitAfterFailure' },
        ],
      },
      {
        // Ratewire fails the first request (an outage that is over as soon as
        // it answered), while a page on the other process waits for that load.
        name: 'Ratewire fails a load that another page waits for, and answers again at once',
        // The reference needs about 590 steps of work, a fix that looks every 50 ms 1 600.
        limits: { maxWork: 4_000 },
        faults: [{ target: 'ratewire', method: 'latest', fail: (args, call) => call.failures === 0 && '503 Service Unavailable' }],
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'green', job: 'eur-2', at: 37 },
        ],
        tests: [
          { name: 'a page waiting for a load that failed gets its rate once Ratewire answers again', property: 'waitersServedAfterFailure' },
          { name: 'no request keeps calling the store without end while a load it waits for fails', property: 'boundedCalls' },
        ],
      },
      {
        // The same failure, with a second page on the loading process: what
        // that process keeps in memory (a load its pages join, a back-off
        // after a failure, a hurry flag) is shared by its two pages. Delays
        // multiply its schedules past any budget (the reference needs about
        // 4 500 steps with one, a fix that looks every 50 ms more than 20 000),
        // so there are none: the reference needs about 170 steps, that fix 270.
        name: 'Ratewire fails a load that a page on the same process and one on the other wait for',
        limits: { maxDelays: 0, maxWork: 6_000 },
        faults: [{ target: 'ratewire', method: 'latest', fail: (args, call) => call.failures === 0 && '503 Service Unavailable' }],
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'green', job: 'eur-2', at: 37 },
          { worker: 'blue', job: 'eur-3', at: 61 },
        ],
        tests: [
          { name: 'pages waiting on either process for a load that failed get their rate once Ratewire answers again', property: 'waitersServedAfterFailure' },
          { name: 'no request keeps calling the store without end while a load of its own process fails', property: 'boundedCalls' },
          { name: `pages waiting on the process whose load failed look at the store at most every ${pollMs} ms`, property: 'pacedPolls' },
        ],
      },
      {
        // Blue dies right after its first write to the store, whatever that is.
        name: 'a process dies in the middle of loading the EUR rate',
        crash: { worker: 'blue' },
        deliveries: [
          { worker: 'blue', job: 'eur-1', at: 0 },
          { worker: 'green', job: 'eur-2', at: 60_000 },
        ],
        tests: [
          { name: 'a process that died while loading a rate does not keep it from the pages for more than a minute', property: 'allDeliveriesAcked' },
          { name: 'no request keeps calling the store without end after a process died', property: 'boundedCalls' },
          { name: `a page waiting after a process died looks at the store at most every ${pollMs} ms`, property: 'pacedPolls' },
        ],
      },
    ],
  };
};
