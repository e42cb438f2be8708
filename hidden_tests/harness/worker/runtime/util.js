// node:util, node:util/types and structuredClone for the worker's realm.
(function utilModule(rt) {
  'use strict';

  rt.need('inspect', 'encoding', 'events', 'process');

  const tagOf = (value) => Object.prototype.toString.call(value).slice(8, -1);

  /** Deep equality as util.isDeepStrictEqual judges it (also assert.deepStrictEqual). */
  function deepEqual(a, b, strict = true, seen = new Map()) {
    if (strict ? Object.is(a, b) : a == b || (Number.isNaN(a) && Number.isNaN(b))) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
      return !strict && (typeof a !== 'object' || a === null) && (typeof b !== 'object' || b === null) && a == b;
    }
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const tag = tagOf(a);
    if (tag !== tagOf(b)) return false;
    if (seen.get(a) === b) return true;
    seen.set(a, b);
    if (tag === 'Date' && a.getTime() !== b.getTime()) return false;
    if (tag === 'RegExp' && (a.source !== b.source || a.flags !== b.flags)) return false;
    if (a instanceof Error && (a.name !== b.name || a.message !== b.message)) return false;
    if (ArrayBuffer.isView(a)) {
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
    }
    if (['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(tag) && !Object.is(a.valueOf(), b.valueOf())) return false;
    if (tag === 'Map') {
      if (a.size !== b.size) return false;
      for (const [key, value] of a) {
        if (!b.has(key) || !deepEqual(value, b.get(key), strict, seen)) return false;
      }
    }
    if (tag === 'Set') {
      if (a.size !== b.size) return false;
      outer: for (const value of a) {
        if (b.has(value)) continue;
        if (typeof value !== 'object') return false;
        for (const other of b) if (deepEqual(value, other, strict, seen)) continue outer;
        return false;
      }
    }
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    if (keysA.length !== keysB.length) return false;
    for (const key of keysA) {
      if (!Object.prototype.hasOwnProperty.call(b, key) || !deepEqual(a[key], b[key], strict, seen)) return false;
    }
    if (strict) {
      const symbolsA = Object.getOwnPropertySymbols(a).filter((s) => Object.prototype.propertyIsEnumerable.call(a, s));
      const symbolsB = Object.getOwnPropertySymbols(b).filter((s) => Object.prototype.propertyIsEnumerable.call(b, s));
      if (symbolsA.length !== symbolsB.length) return false;
      for (const s of symbolsA) if (!deepEqual(a[s], b[s], strict, seen)) return false;
    }
    return true;
  }
  rt.deepEqual = deepEqual;

  const custom = Symbol.for('nodejs.util.promisify.custom');

  function promisify(fn) {
    if (typeof fn !== 'function') throw new TypeError('The "original" argument must be of type function');
    if (typeof fn[custom] === 'function') return fn[custom];
    return function promisified(...args) {
      return new Promise((resolve, reject) => {
        fn.call(this, ...args, (error, ...values) => {
          if (error) reject(error);
          else resolve(values.length > 1 ? values : values[0]);
        });
      });
    };
  }
  promisify.custom = custom;

  function callbackify(fn) {
    return function callbackified(...args) {
      const done = args.pop();
      Promise.resolve().then(() => fn.apply(this, args)).then(
        (value) => done(null, value),
        (error) => done(error || Object.assign(new Error('Promise was rejected with a falsy value'), { reason: error })),
      );
    };
  }

  const types = {
    isPromise: (v) => tagOf(v) === 'Promise',
    isDate: (v) => tagOf(v) === 'Date',
    isRegExp: (v) => tagOf(v) === 'RegExp',
    isMap: (v) => tagOf(v) === 'Map',
    isSet: (v) => tagOf(v) === 'Set',
    isWeakMap: (v) => tagOf(v) === 'WeakMap',
    isWeakSet: (v) => tagOf(v) === 'WeakSet',
    isNativeError: (v) => tagOf(v) === 'Error',
    isAsyncFunction: (v) => ['AsyncFunction', 'AsyncGeneratorFunction'].includes(tagOf(v)),
    isGeneratorFunction: (v) => ['GeneratorFunction', 'AsyncGeneratorFunction'].includes(tagOf(v)),
    isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
    isUint8Array: (v) => v instanceof Uint8Array,
    isArrayBuffer: (v) => v instanceof ArrayBuffer,
    isAnyArrayBuffer: (v) => v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer),
    isArrayBufferView: (v) => ArrayBuffer.isView(v),
    isBoxedPrimitive: (v) => typeof v === 'object' && v !== null && ['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(tagOf(v)),
    isProxy: () => false,
  };

  const warned = new Set();
  function deprecate(fn, message, code) {
    return function deprecated(...args) {
      const key = code ?? message;
      if (!warned.has(key)) {
        warned.add(key);
        rt.process.emitWarning(`${code ? `[${code}] ` : ''}DeprecationWarning: ${message}`);
      }
      return fn.apply(this, args);
    };
  }

  function inherits(ctor, superCtor) {
    Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
    Object.setPrototypeOf(ctor, superCtor);
    ctor.super_ = superCtor;
  }

  function debuglog() {
    const log = () => {};
    log.enabled = false;
    return log;
  }

  /** structuredClone for the values services pass around: plain data, Maps, Sets, Dates, typed arrays, errors. */
  function structuredClone(value, seen = new Map()) {
    if (typeof value === 'function' || typeof value === 'symbol') {
      throw new rt.DOMException(`${String(value)} could not be cloned.`, 'DataCloneError');
    }
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return seen.get(value);
    const tag = tagOf(value);
    let copy;
    if (Array.isArray(value)) copy = [];
    else if (tag === 'Date') return new Date(value.getTime());
    else if (tag === 'RegExp') return new RegExp(value.source, value.flags);
    else if (tag === 'Map') copy = new Map();
    else if (tag === 'Set') copy = new Set();
    else if (ArrayBuffer.isView(value)) return new value.constructor(value);
    else if (value instanceof ArrayBuffer) return value.slice(0);
    else if (value instanceof Error) copy = new Error(value.message);
    else copy = {};
    seen.set(value, copy);
    if (tag === 'Map') for (const [k, v] of value) copy.set(structuredClone(k, seen), structuredClone(v, seen));
    else if (tag === 'Set') for (const v of value) copy.add(structuredClone(v, seen));
    else for (const key of Object.keys(value)) copy[key] = structuredClone(value[key], seen);
    return copy;
  }
  rt.setGlobal('structuredClone', function structuredCloneValue(value) { return structuredClone(value); });

  rt.define('util/types', () => types);
  rt.define('util', () => ({
    format: rt.format,
    formatWithOptions: (options, ...args) => rt.format(...args),
    inspect: rt.inspect,
    isDeepStrictEqual: (a, b) => deepEqual(a, b, true),
    promisify,
    callbackify,
    deprecate,
    inherits,
    debuglog,
    debug: debuglog,
    types,
    TextEncoder: rt.TextEncoder,
    TextDecoder: rt.TextDecoder,
    isArray: Array.isArray,
    stripVTControlCharacters: (text) => String(text).replace(/\u001b\[[0-9;]*m/g, ''),
    toUSVString: (text) => String(text).toWellFormed?.() ?? String(text),
    aborted: (signal) => new Promise((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    }),
  }));
})
