// node:timers, node:timers/promises and node:perf_hooks for the worker's
// realm, all on the virtual clock the supervisor moves.
(function timersModule(rt) {
  'use strict';

  rt.need('events');

  function sleep(ms, value, options = {}) {
    return new Promise((resolve, reject) => {
      const signal = options?.signal;
      if (signal?.aborted) {
        reject(rt.abortError(signal.reason));
        return;
      }
      const handle = rt.addTimer(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      }, ms, [], false);
      function onAbort() {
        rt.clearTimer(handle);
        reject(rt.abortError(signal.reason));
      }
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function immediate(value, options = {}) {
    return new Promise((resolve, reject) => {
      if (options?.signal?.aborted) {
        reject(rt.abortError(options.signal.reason));
        return;
      }
      rt.addImmediate(() => resolve(value), []);
    });
  }

  /** An async iterator that yields `value` every `ms` of virtual time. */
  function interval(ms, value, options = {}) {
    let ticks = 0;
    const waiting = [];
    const handle = rt.addTimer(() => {
      if (waiting.length > 0) waiting.shift()({ value, done: false });
      else ticks += 1;
    }, ms, [], true);
    let done = false;
    const finish = () => {
      done = true;
      rt.clearTimer(handle);
      while (waiting.length > 0) waiting.shift()({ value: undefined, done: true });
    };
    options?.signal?.addEventListener('abort', finish, { once: true });
    return {
      next() {
        if (done) return Promise.resolve({ value: undefined, done: true });
        if (ticks > 0) {
          ticks -= 1;
          return Promise.resolve({ value, done: false });
        }
        return new Promise((resolve) => waiting.push(resolve));
      },
      return() { finish(); return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  }

  const promises = {
    setTimeout: sleep,
    setImmediate: immediate,
    setInterval: interval,
    scheduler: { wait: (ms, options) => sleep(ms, undefined, options), yield: () => immediate() },
  };

  const performance = {
    now: () => rt.now(),
    timeOrigin: rt.options.epochMs,
    mark: () => undefined,
    measure: () => undefined,
    getEntries: () => [],
    getEntriesByName: () => [],
    getEntriesByType: () => [],
    clearMarks: () => {},
    clearMeasures: () => {},
    toJSON: () => ({ timeOrigin: rt.options.epochMs }),
  };
  rt.setGlobal('performance', performance);

  rt.define('timers/promises', () => promises);
  rt.define('timers', () => ({ ...rt.timers, promises }));
  rt.define('perf_hooks', () => ({ performance, PerformanceObserver: class PerformanceObserver { observe() {} disconnect() {} } }));
})
