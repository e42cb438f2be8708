// Time and randomness inside a worker's realm, virtual and deterministic:
// the clock reads the supervisor's virtual time (from the incident's morning),
// randomness is a generator seeded per worker, the same in every schedule
// (but for a draw the explorer tries the other way, see rt.draw), and nothing
// in the realm can read the real clock or watch garbage collection.
// Installed right after the core, before any of the learner's code runs.
(function clockModule(rt) {
  'use strict';

  const { defineProperty } = Object;
  const { apply: reflectApply, construct: reflectConstruct } = Reflect;
  const RealDate = Date;
  const { options } = rt;

  // ---- virtual time

  const EPOCH_MS = options.epochMs;
  rt.now = function now() {
    const ms = rt.host('now');
    return typeof ms === 'number' ? ms : 0;
  };
  rt.wallNow = () => EPOCH_MS + rt.now();

  function VirtualDate(...args) {
    if (new.target === undefined) return new RealDate(rt.wallNow()).toString();
    return reflectConstruct(RealDate, args.length === 0 ? [rt.wallNow()] : args, new.target);
  }
  defineProperty(VirtualDate, 'name', { value: 'Date' });
  defineProperty(VirtualDate, 'length', { value: 7 });
  VirtualDate.prototype = RealDate.prototype;
  VirtualDate.now = function now() { return rt.wallNow(); };
  VirtualDate.parse = RealDate.parse;
  VirtualDate.UTC = RealDate.UTC;
  defineProperty(RealDate.prototype, 'constructor', { value: VirtualDate, writable: true, configurable: true, enumerable: false });
  RealDate.now = VirtualDate.now;
  globalThis.Date = VirtualDate;

  // Intl formats the current time when it is given no date: make that the virtual time.
  for (const method of ['format', 'formatToParts']) {
    const proto = Intl.DateTimeFormat.prototype;
    const descriptor = Object.getOwnPropertyDescriptor(proto, method);
    if (!descriptor) continue;
    const original = descriptor.get ?? descriptor.value;
    const wrap = (fn) => function formatAt(date, ...rest) {
      return reflectApply(fn, this, [date === undefined ? rt.wallNow() : date, ...rest]);
    };
    if (descriptor.get) {
      defineProperty(proto, method, { get() { return wrap(reflectApply(original, this, [])); }, configurable: true });
    } else {
      defineProperty(proto, method, { value: wrap(original), writable: true, configurable: true });
    }
  }

  // ---- deterministic randomness: xorshift32, seeded per worker, the same in every schedule

  let state = (options.seed >>> 0) || 1;
  rt.nextUint32 = function nextUint32() {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state;
  };
  rt.random = () => rt.nextUint32() / 0x100000000;
  /**
   * A number the code picks with (Math.random, crypto.randomInt): the seeded
   * draw, or, where the explorer tries this draw the other way in this
   * schedule, the number half of [0, 1) further on. The generator advances the
   * same either way, so every other draw keeps its value.
   */
  rt.draw = function draw() {
    const value = rt.random();
    return rt.host('draw') === true ? (value + 0.5) % 1 : value;
  };
  rt.fillRandom = function fillRandom(bytes) {
    for (let i = 0; i < bytes.length; i++) bytes[i] = rt.nextUint32() & 0xff;
    return bytes;
  };
  Math.random = function random() { return rt.draw(); };

  // ---- values that would let code observe garbage collection or real time: made inert

  globalThis.WeakRef = class WeakRef {
    #target;
    constructor(target) {
      if (target === null || (typeof target !== 'object' && typeof target !== 'function')) throw new TypeError('WeakRef: invalid target');
      this.#target = target;
    }
    deref() { return this.#target; }
  };
  globalThis.FinalizationRegistry = class FinalizationRegistry {
    constructor(cleanup) {
      if (typeof cleanup !== 'function') throw new TypeError('FinalizationRegistry: cleanup must be callable');
    }
    register() {}
    unregister() { return false; }
  };
  if (typeof Atomics === 'object') delete Atomics.waitAsync;
  delete globalThis.WebAssembly;
})
