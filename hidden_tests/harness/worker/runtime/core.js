// The core of the world a worker's code runs in, evaluated inside a fresh realm
// for every schedule. It is the only code that holds the host's bridge, a
// function of the host process; it keeps it in this closure and never hands it
// to the learner's code. Every call through the bridge passes and returns
// primitives only, and any error it might throw (a stack overflow at its very
// first frame) is discarded here, so no object of the host's realm ever
// reaches the learner's code.
//
// Timers and microtasks are virtual and deterministic: the supervisor decides
// when a timer fires. Time and randomness are clock.js, and how errors look
// (stacks, uncaught exceptions, call sites) is errors.js, both installed right
// after the core, before any of the learner's code runs.
(function core(bridge, optionsJson) {
  'use strict';

  const { parse, stringify } = JSON;
  const { defineProperty, freeze, create, keys: objectKeys } = Object;
  const { apply: reflectApply } = Reflect;
  const PromiseCtor = Promise;
  const promiseThen = Promise.prototype.then;
  const resolved = Promise.resolve();
  const mathFloor = Math.floor;

  /** Calls the host with primitives; an error of the host's realm never gets past this frame. */
  function host(kind, a, b, c, d) {
    try {
      return bridge(kind, a, b, c, d);
    } catch {
      return undefined;
    }
  }

  const options = parse(optionsJson);
  const rt = create(null);
  rt.options = options;
  rt.worker = options.worker;
  rt.host = host;

  /** Runs fn as a microtask; what it throws is reported as uncaught. */
  rt.queueMicrotask = function queueMicrotask(fn) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    reflectApply(promiseThen, resolved, [() => {
      try {
        fn();
      } catch (error) {
        rt.uncaught(error, 'uncaughtException');
      }
    }]);
  };

  /** A JSON text of a value, never throwing. */
  rt.toJson = function toJson(value) {
    try {
      const text = stringify(value === undefined ? null : value, (key, v) => (typeof v === 'bigint' ? String(v) : v));
      return text === undefined ? 'null' : text;
    } catch {
      try {
        return stringify(String(value));
      } catch {
        return '"[a value that cannot be shown]"';
      }
    }
  };

  // ---- timers: the host numbers them and the supervisor fires them

  const timers = new Map();
  const immediates = [];

  /** The object setTimeout and setInterval return, as in Node.js. */
  class Timeout {
    #id;
    constructor(id) { this.#id = id; }
    ref() { return this; }
    unref() { return this; }
    hasRef() { return true; }
    refresh() { return this; }
    close() { rt.clearTimer(this); return this; }
    [Symbol.toPrimitive]() { return this.#id; }
    static idOf(handle) { return handle instanceof Timeout ? handle.#id : undefined; }
  }
  rt.Timeout = Timeout;

  function delayOf(ms) {
    const n = Number(ms);
    if (!(n >= 0) || n > 2147483647) return 0;
    return mathFloor(n);
  }

  /** Registers a timer with the host and returns its handle. */
  rt.addTimer = function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    const delay = delayOf(ms);
    const id = host('timer', delay, repeat === true);
    if (typeof id !== 'string') throw new Error('the timer could not be registered');
    const handle = new Timeout(id);
    timers.set(id, { fn, args, repeat, delay, handle });
    return handle;
  };

  /** Cancels a timer given its handle or its id. */
  rt.clearTimer = function clearTimer(handle) {
    const id = typeof handle === 'string' ? handle : Timeout.idOf(handle);
    if (id === undefined || !timers.has(id)) return;
    timers.delete(id);
    host('clear', id);
  };

  /** The object setImmediate returns. */
  class Immediate {
    #entry;
    constructor(entry) { this.#entry = entry; }
    ref() { return this; }
    unref() { return this; }
    hasRef() { return true; }
    static cancel(handle) { if (handle instanceof Immediate) handle.#entry.cancelled = true; }
  }

  rt.addImmediate = function addImmediate(fn, args) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    // The request (delivery) being handled now: the immediate runs on its behalf.
    const request = host('request');
    const entry = { fn, args, cancelled: false, request: typeof request === 'string' ? request : '' };
    immediates.push(entry);
    return new Immediate(entry);
  };
  rt.clearImmediate = (handle) => Immediate.cancel(handle);

  rt.timers = freeze({
    setTimeout: function setTimeout(fn, ms, ...args) { return rt.addTimer(fn, ms, args, false); },
    setInterval: function setInterval(fn, ms, ...args) { return rt.addTimer(fn, ms, args, true); },
    clearTimeout: function clearTimeout(handle) { rt.clearTimer(handle); },
    clearInterval: function clearInterval(handle) { rt.clearTimer(handle); },
    setImmediate: function setImmediate(fn, ...args) { return rt.addImmediate(fn, args); },
    clearImmediate: function clearImmediate(handle) { rt.clearImmediate(handle); },
  });
  for (const name of objectKeys(rt.timers)) globalThis[name] = rt.timers[name];
  globalThis.queueMicrotask = function queueMicrotask(fn) { rt.queueMicrotask(fn); };
  globalThis.global = globalThis;

  // ---- the worker's dependencies, as the suite describes them

  const pending = new Map();

  /** A remote dependency: every method call is an operation the supervisor schedules. */
  function remote(target, methods) {
    const proxy = create(null);
    for (const name of methods) {
      proxy[name] = function call(...args) {
        const site = rt.callSite(call);
        return new PromiseCtor((resolve, reject) => {
          const id = host('op', target, name, rt.toJson(args), site);
          if (typeof id !== 'string') {
            reject(new Error(`${target}.${name}(): the call could not be sent (are its arguments too large?)`));
            return;
          }
          pending.set(id, { resolve, reject });
        });
      };
    }
    return freeze(proxy);
  }

  const virtualClock = freeze({
    now: () => rt.wallNow(),
    sleep: (ms) => new PromiseCtor((resolve) => { rt.addTimer(resolve, ms, [], false); }),
  });

  function buildDeps(spec) {
    if (Array.isArray(spec)) return spec.map(buildDeps);
    if (spec === null || typeof spec !== 'object') return spec;
    switch (spec.$) {
      case 'worker': return rt.worker;
      case 'clock': return virtualClock;
      case 'remote': return remote(spec.name, spec.methods);
      case undefined: {
        const out = {};
        for (const key of objectKeys(spec)) out[key] = buildDeps(spec[key]);
        return out;
      }
      default: throw new Error(`unknown dependency kind ${spec.$}`);
    }
  }

  // ---- the entry points the host calls, each with primitives or this realm's values

  let instance;

  async function start(namespace, factory, depsJson) {
    try {
      const make = namespace[factory];
      if (typeof make !== 'function') throw new TypeError(`the module does not export a function named ${factory}`);
      instance = await make(buildDeps(parse(depsJson)));
      host('spawned', true, '');
    } catch (error) {
      host('spawned', false, rt.describe(error));
    }
  }

  function call(callId, method, argsJson) {
    const args = parse(argsJson);
    const running = reflectApply(promiseThen, resolved, [() => {
      if (!instance || typeof instance[method] !== 'function') throw new TypeError(`the worker has no method ${method}()`);
      return instance[method](...args);
    }]);
    reflectApply(promiseThen, running, [
      (value) => { host('settled', callId, true, rt.toJson(value)); },
      (error) => { host('settled', callId, false, rt.describe(error)); },
    ]);
  }

  function reply(id, ok, valueJson, errorText) {
    const op = pending.get(id);
    if (!op) return;
    pending.delete(id);
    if (ok) op.resolve(parse(valueJson));
    else op.reject(failure(errorText, parse(valueJson)));
  }

  /**
   * The error a failed call rejects with: its message, and the fields the
   * suite gave it (a client's `name`, `code` or `status`), strings and numbers only.
   */
  function failure(text, fields) {
    const error = new Error(text);
    if (fields === null || typeof fields !== 'object') return error;
    for (const key of objectKeys(fields)) {
      const value = fields[key];
      if (key === 'message' || key === 'stack' || (typeof value !== 'string' && typeof value !== 'number')) continue;
      defineProperty(error, key, { value, writable: true, configurable: true, enumerable: key !== 'name' });
    }
    return error;
  }

  function fire(id) {
    const timer = timers.get(id);
    if (!timer) return;
    if (timer.repeat) host('rearm', id, timer.delay);
    else timers.delete(id);
    try {
      reflectApply(timer.fn, undefined, timer.args);
    } catch (error) {
      rt.uncaught(error, 'uncaughtException');
    }
  }

  /** The request the next queued immediate runs for ("" for none), or null when none is queued. */
  function nextImmediate() {
    while (immediates.length > 0 && immediates[0].cancelled) immediates.shift();
    return immediates.length > 0 ? immediates[0].request : null;
  }

  /** Runs the next queued immediate. */
  function runNextImmediate() {
    const entry = immediates.shift();
    if (!entry) return;
    try {
      reflectApply(entry.fn, undefined, entry.args);
    } catch (error) {
      rt.uncaught(error, 'uncaughtException');
    }
  }

  rt.entry = freeze({
    start,
    call,
    reply,
    fire,
    nextImmediate,
    runNextImmediate,
    unhandled: (reason) => rt.uncaught(reason, 'unhandledRejection'),
    error: (message) => new Error(message),
    describe: (value) => rt.describe(value),
    hasMethod: (name) => Boolean(instance) && typeof instance[name] === 'function',
    json: (text) => parse(text),
    hasBuiltin: (name) => rt.has(name),
    builtinNames: (name, knownNamesJson) => rt.builtinNames(name, knownNamesJson),
    builtinExport: (name, key) => rt.builtinExport(name, key),
  });

  // ---- the rest of the runtime: installed part by part, the first time code needs it

  const installed = new Set(['core']);

  /** Installs runtime parts (runtime/<part>.js) that are not installed yet. */
  rt.need = function need(...parts) {
    for (const part of parts) {
      if (installed.has(part)) continue;
      installed.add(part);
      if (host('install', part) !== true) throw new Error(`the runtime could not load ${part}`);
    }
  };

  /** Sets a global as a plain, writable property (replacing its lazy accessor). */
  rt.setGlobal = function setGlobal(name, value) {
    defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  };

  const LAZY_GLOBALS = {
    console: 'console',
    process: 'process',
    Buffer: 'buffer',
    TextEncoder: 'encoding',
    TextDecoder: 'encoding',
    atob: 'encoding',
    btoa: 'encoding',
    EventTarget: 'events',
    Event: 'events',
    CustomEvent: 'events',
    AbortController: 'events',
    AbortSignal: 'events',
    DOMException: 'events',
    URL: 'url',
    URLSearchParams: 'url',
    structuredClone: 'util',
    crypto: 'crypto',
    performance: 'timers',
  };
  for (const name of objectKeys(LAZY_GLOBALS)) {
    defineProperty(globalThis, name, {
      get() {
        rt.need(LAZY_GLOBALS[name]);
        return globalThis[name];
      },
      set(value) { rt.setGlobal(name, value); },
      configurable: true,
      enumerable: false,
    });
  }

  // ---- built-in modules, each defined by the runtime part that implements it

  const MODULE_PARTS = {
    events: 'events',
    util: 'util',
    'util/types': 'util',
    assert: 'assert',
    'assert/strict': 'assert',
    crypto: 'crypto',
    buffer: 'buffer',
    url: 'url',
    path: 'url',
    'path/posix': 'url',
    os: 'process',
    process: 'process',
    timers: 'timers',
    'timers/promises': 'timers',
    perf_hooks: 'timers',
    console: 'console',
  };
  const factories = new Map();
  const built = new Map();
  rt.define = function define(name, factory) { factories.set(name, factory); };
  rt.has = (name) => Object.prototype.hasOwnProperty.call(MODULE_PARTS, name);
  rt.require = function requireBuiltin(name) {
    if (!built.has(name)) {
      rt.need(MODULE_PARTS[name]);
      built.set(name, factories.get(name)());
    }
    return built.get(name);
  };

  return rt;
})
