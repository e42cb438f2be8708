// The properties of the fx-rates-stampede suite: one Ratewire request per
// currency for pages that ask together, a failed request neither served nor
// waited on once Ratewire is back, cached rates answered at once, and
// currencies loaded side by side.

/** When the Ratewire outage of the failure scenario ends. */
export const RECOVERED_AT_MS = 1_000;

/** The Ratewire requests of a schedule, by currency: the trace's steps at it. */
function ratewireCalls(world) {
  const byCurrency = new Map();
  for (const step of world.trace.filter((s) => s.service === 'ratewire' && s.operation === 'latest')) {
    byCurrency.set(step.key, [...(byCurrency.get(step.key) ?? []), step]);
  }
  return byCurrency;
}

/** Requests for a currency that arrive together share one Ratewire request, whichever process they reach. */
export const oneRatewireRequestPerCurrency = {
  end(world) {
    for (const [currency, calls] of ratewireCalls(world)) {
      if (calls.length <= 1) continue;
      const refused = calls.filter((s) => /429/.test(s.result)).length;
      const asking = [...new Set(calls.map((s) => s.worker))].join(' and ');
      const cached = writtenBeforeAsking(world, calls[0], calls[1]);
      const late = cached
        ? ` (${calls[1].worker} asked at ${calls[1].issued ?? calls[1].at} ms, after ${calls[0].worker} had fetched the rate and `
          + `written it to the store at step ${cached.step}: a page that takes a load over looks for the rate again before asking Ratewire)`
        : '';
      world.violate('oneRatewireRequestPerCurrency',
        `Ratewire was asked for ${currency} ${calls.length} times (by ${asking}) for requests that arrived together`
        + `${refused > 0 ? `, and refused ${refused} of them with 429` : ''}: they should have shared one request${late}`, calls);
      return;
    }
  },
};

/**
 * The store write that the request of Ratewire call `first` made after its
 * answer and before the request of `second` last called the store ahead of
 * asking Ratewire itself, if any: the rate was there to be found.
 */
function writtenBeforeAsking(world, first, second) {
  const lastLook = world.trace.filter((s) => s.request === second.request && s.step < second.step && s.service === 'store').at(-1);
  if (!lastLook) return undefined;
  return world.trace.find((s) => s.request === first.request && s.step > first.step && s.step < lastLook.step
    && s.service === 'store' && ['set', 'setIfAbsent', 'compareAndSet'].includes(s.operation));
}

/** The deliveries that arrived at or after `from` ms, on processes that did not crash. */
const arrivedFrom = (world, from) => world.deliveries.filter((d) => !world.crashed.has(d.worker) && d.at >= from);

/** A request that arrives once Ratewire answers again gets its rate, whatever happened before. */
export const servedWhenRatewireIsUp = {
  end(world) {
    const failed = arrivedFrom(world, RECOVERED_AT_MS).find((d) => !d.acked);
    if (failed) {
      world.violate('servedWhenRatewireIsUp',
        `${failed.job} (${failed.worker}) arrived at ${failed.at} ms, when Ratewire was answering, and got ${JSON.stringify(failed.outcome)}`);
    }
  },
};

/** Whether a delivery's own Ratewire request failed. */
const ownRequestFailed = (world, d) => world.trace.some((s) => s.service === 'ratewire' && s.worker === d.worker
  && s.request?.startsWith(`${d.job} #`) && s.result.startsWith('failed'));

/**
 * A page that waited for another page's load gets its rate when that load
 * failed and Ratewire answers again at once: a failed request leaves nothing
 * behind, so someone asks Ratewire again. Only a page whose own Ratewire
 * request failed may go without.
 */
export const waitersServedAfterFailure = {
  end(world) {
    const left = world.deliveries.find((d) => !world.crashed.has(d.worker) && !d.acked && !ownRequestFailed(world, d));
    if (!left) return;
    world.violate('waitersServedAfterFailure',
      `${left.job} (${left.worker}) got ${JSON.stringify(left.outcome ?? 'no answer')}, although its own Ratewire request `
      + 'never failed and Ratewire answered again right after the failed one: a page waiting for a load that failed must '
      + 'find someone asking Ratewire again, or ask itself');
  },
};

/**
 * When the load that Ratewire step `call` belongs to was over: the time of the
 * last store call its request made straight after the answer (caching the
 * rate, letting go of a lease), before anything else of its own (a timer, its
 * answer, another request to Ratewire).
 */
function loadEnd(world, call) {
  const own = world.trace.filter((s) => s.request === call.request && s.step > call.step);
  let end = call.at;
  for (const s of own) {
    if (s.service !== 'store') break;
    end = s.at;
  }
  return end;
}

/**
 * Whether another page's load of d's currency (its Ratewire request, and the
 * store calls that cache what it got) was under way at some moment from d's
 * arrival until `until` ms: then d may wait to share it.
 */
const otherLoadUnderWay = (world, d, until) => world.trace.some((s) => s.service === 'ratewire' && s.operation === 'latest'
  && s.key === currencyOf(d.job) && !s.request?.startsWith(`${d.job} #`) && (s.issued ?? s.at) < until && loadEnd(world, s) >= d.at);

/**
 * A request that arrives once Ratewire answers again, with no load in flight,
 * does not wait: no timer of its own fires before it asks Ratewire (or, if it
 * found the rate cached, before it answers). While another page's request for
 * the rate is under way, waiting to share it is what the README asks.
 */
export const noWaitAfterFailure = {
  end(world) {
    for (const d of arrivedFrom(world, RECOVERED_AT_MS)) {
      const mine = world.trace.filter((s) => s.worker === d.worker && s.request?.startsWith(`${d.job} #`));
      const asked = mine.findIndex((s) => s.service === 'ratewire' || s.operation === 'handle');
      const waited = mine.slice(0, asked < 0 ? mine.length : asked).find((s) => s.operation === 'timer');
      if (waited && !otherLoadUnderWay(world, d, waited.at)) {
        world.violate('noWaitAfterFailure',
          `${d.job} (${d.worker}) arrived at ${d.at} ms, after Ratewire had recovered and when nothing was loading the rate, `
          + `but was still waiting at ${waited.at} ms instead of asking Ratewire`, [waited]);
        return;
      }
    }
  },
};

/** How long each request took, from its arrival to its answer: [{ delivery, ms, steps }]. */
function answerTimes(world, deliveries) {
  return deliveries.map((d) => {
    const received = world.trace.find((s) => s.operation === 'receive' && s.key === d.job && s.worker === d.worker);
    const answered = world.trace.find((s) => s.operation === 'handle' && s.key === d.job && s.worker === d.worker);
    return { delivery: d, ms: answered && received ? answered.at - received.at : Infinity, steps: [received, answered].filter(Boolean) };
  });
}

/**
 * A property: every request arriving at or after `from` ms is answered within
 * `withinMs`, and `why` says what it should not have waited for.
 */
export function answeredWithin(name, from, withinMs, why) {
  return {
    end(world) {
      const slow = answerTimes(world, arrivedFrom(world, from)).find((t) => t.ms > withinMs);
      if (slow) {
        const took = Number.isFinite(slow.ms) ? `${slow.ms} ms` : 'for ever';
        world.violate(name, `${slow.delivery.job} (${slow.delivery.worker}) arrived at ${slow.delivery.at} ms and took ${took} to be answered, `
          + `more than ${withinMs} ms: ${why}`, slow.steps);
      }
    },
  };
}

/** When a Ratewire request was in flight: from when it was made to when it reached Ratewire. */
const inFlight = (step) => [step.issued ?? step.at, step.at];

/** Requests for different currencies are loaded side by side: two of them were at Ratewire at the same time. */
export const currenciesLoadedTogether = {
  end(world) {
    const calls = [...ratewireCalls(world).values()];
    const together = calls.some((a, i) => calls.slice(i + 1).some((b) => a.some((x) => b.some((y) => {
      const [xFrom, xTo] = inFlight(x);
      const [yFrom, yTo] = inFlight(y);
      return xFrom < yTo && yFrom < xTo;
    }))));
    if (!together) {
      world.violate('currenciesLoadedTogether',
        `the rates of ${[...ratewireCalls(world).keys()].join(' and ') || 'no currency'} were never requested from Ratewire at the same time: `
        + 'a load of one currency waited for the load of another');
    }
  },
};

/** A request: the currency is the job's prefix (eur-1 → EUR). */
export const currencyOf = (job) => job.split('-')[0].toUpperCase();
