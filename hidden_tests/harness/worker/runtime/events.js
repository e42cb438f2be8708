// Events for the worker's realm: node:events (EventEmitter, once, on) and the
// web's EventTarget, Event, AbortController, AbortSignal and DOMException, with
// AbortSignal.timeout on the virtual clock.
(function eventsModule(rt) {
  'use strict';

  rt.need('inspect');

  const errorMonitor = Symbol('events.errorMonitor');
  const captureRejectionSymbol = Symbol.for('nodejs.rejection');

  class EventEmitter {
    static defaultMaxListeners = 10;
    static errorMonitor = errorMonitor;
    static captureRejectionSymbol = captureRejectionSymbol;
    static captureRejections = false;

    #events = new Map();
    #max = undefined;

    constructor() {
      // A subclass may call super() late; the private fields are set either way.
    }

    #list(name) {
      let list = this.#events.get(name);
      if (!list) {
        list = [];
        this.#events.set(name, list);
      }
      return list;
    }

    #add(name, listener, once, prepend) {
      if (typeof listener !== 'function') throw new TypeError('The "listener" argument must be of type function');
      if (this.#events.has('newListener')) this.emit('newListener', name, listener);
      const entry = { listener, once };
      const list = this.#list(name);
      if (prepend) list.unshift(entry);
      else list.push(entry);
      return this;
    }

    on(name, listener) { return this.#add(name, listener, false, false); }
    addListener(name, listener) { return this.#add(name, listener, false, false); }
    prependListener(name, listener) { return this.#add(name, listener, false, true); }
    once(name, listener) { return this.#add(name, listener, true, false); }
    prependOnceListener(name, listener) { return this.#add(name, listener, true, true); }

    off(name, listener) { return this.removeListener(name, listener); }

    removeListener(name, listener) {
      const list = this.#events.get(name);
      if (!list) return this;
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i].listener === listener) {
          list.splice(i, 1);
          if (this.#events.has('removeListener')) this.emit('removeListener', name, listener);
          break;
        }
      }
      if (list.length === 0) this.#events.delete(name);
      return this;
    }

    removeAllListeners(name) {
      if (name === undefined) this.#events.clear();
      else this.#events.delete(name);
      return this;
    }

    emit(name, ...args) {
      if (name === 'error') {
        const monitors = this.#events.get(errorMonitor);
        if (monitors) for (const { listener } of [...monitors]) listener.apply(this, args);
      }
      const list = this.#events.get(name);
      if (!list || list.length === 0) {
        if (name === 'error') {
          const error = args[0];
          if (error instanceof Error) throw error;
          const wrapped = new Error(`Unhandled error. (${rt.inspect(error)})`);
          wrapped.context = error;
          throw wrapped;
        }
        return false;
      }
      for (const entry of [...list]) {
        if (entry.once) this.removeListener(name, entry.listener);
        entry.listener.apply(this, args);
      }
      return true;
    }

    listenerCount(name, listener) {
      const list = this.#events.get(name) ?? [];
      return listener === undefined ? list.length : list.filter((e) => e.listener === listener).length;
    }

    listeners(name) { return (this.#events.get(name) ?? []).map((e) => e.listener); }
    rawListeners(name) { return this.listeners(name); }
    eventNames() { return [...this.#events.keys()]; }
    setMaxListeners(n) { this.#max = n; return this; }
    getMaxListeners() { return this.#max ?? EventEmitter.defaultMaxListeners; }
  }

  /** Resolves with the arguments of the next `name` event; rejects on 'error' or abort. */
  function once(emitter, name, options = {}) {
    return new Promise((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(abortError(signal.reason));
        return;
      }
      const cleanup = () => {
        remove(emitter, name, onEvent);
        if (name !== 'error') remove(emitter, 'error', onError);
        signal?.removeEventListener('abort', onAbort);
      };
      const onEvent = (...args) => { cleanup(); resolve(args); };
      const onError = (error) => { cleanup(); reject(error); };
      const onAbort = () => { cleanup(); reject(abortError(signal.reason)); };
      add(emitter, name, onEvent);
      if (name !== 'error') add(emitter, 'error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  function add(target, name, listener) {
    if (typeof target.on === 'function') target.on(name, listener);
    else target.addEventListener(name, listener);
  }

  function remove(target, name, listener) {
    if (typeof target.off === 'function') target.off(name, listener);
    else target.removeEventListener(name, listener);
  }

  /** An async iterator over the arguments of every `name` event. */
  function on(emitter, name, options = {}) {
    const queue = [];
    const waiting = [];
    let failure = null;
    let done = false;
    const push = (item) => { if (waiting.length > 0) waiting.shift().resolve({ value: item, done: false }); else queue.push(item); };
    const onEvent = (...args) => push(args);
    const onError = (error) => {
      failure = error;
      while (waiting.length > 0) waiting.shift().reject(error);
    };
    add(emitter, name, onEvent);
    if (name !== 'error') add(emitter, 'error', onError);
    const finish = () => {
      done = true;
      remove(emitter, name, onEvent);
      remove(emitter, 'error', onError);
      while (waiting.length > 0) waiting.shift().resolve({ value: undefined, done: true });
    };
    options.signal?.addEventListener('abort', () => { onError(abortError(options.signal.reason)); finish(); }, { once: true });
    return {
      next() {
        if (queue.length > 0) return Promise.resolve({ value: queue.shift(), done: false });
        if (failure) { const error = failure; failure = null; return Promise.reject(error); }
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return() { finish(); return Promise.resolve({ value: undefined, done: true }); },
      throw(error) { finish(); return Promise.reject(error); },
      [Symbol.asyncIterator]() { return this; },
    };
  }

  // ---- the web's events

  class DOMException extends Error {
    #name;
    #code;
    constructor(message = '', options = 'Error') {
      super(message);
      this.#name = typeof options === 'string' ? options : options?.name ?? 'Error';
      this.#code = { AbortError: 20, TimeoutError: 23, InvalidStateError: 11 }[this.#name] ?? 0;
      if (options && typeof options === 'object' && 'cause' in options) this.cause = options.cause;
    }
    get name() { return this.#name; }
    get code() { return this.#code; }
  }

  function abortError(reason) {
    const error = new DOMException('The operation was aborted', 'AbortError');
    if (reason !== undefined) error.cause = reason;
    return error;
  }
  rt.abortError = abortError;
  rt.DOMException = DOMException;

  class Event {
    #type;
    #target = null;
    #defaultPrevented = false;
    #cancelable;
    #stopped = false;
    constructor(type, options = {}) {
      if (arguments.length === 0) throw new TypeError('The "type" argument must be specified');
      this.#type = String(type);
      this.#cancelable = Boolean(options.cancelable);
      this.timeStamp = rt.now();
    }
    get type() { return this.#type; }
    get target() { return this.#target; }
    get currentTarget() { return this.#target; }
    get defaultPrevented() { return this.#defaultPrevented; }
    get cancelable() { return this.#cancelable; }
    preventDefault() { if (this.#cancelable) this.#defaultPrevented = true; }
    stopImmediatePropagation() { this.#stopped = true; }
    stopPropagation() {}
    static setTarget(event, target) { event.#target = target; }
    static stopped(event) { return event.#stopped; }
  }

  class CustomEvent extends Event {
    #detail;
    constructor(type, options = {}) {
      super(type, options);
      this.#detail = options.detail ?? null;
    }
    get detail() { return this.#detail; }
  }

  class EventTarget {
    #listeners = new Map();
    addEventListener(type, listener, options = {}) {
      if (!listener) return;
      const once = typeof options === 'object' && Boolean(options.once);
      const list = this.#listeners.get(type) ?? [];
      if (list.some((e) => e.listener === listener)) return;
      list.push({ listener, once });
      this.#listeners.set(type, list);
      options?.signal?.addEventListener?.('abort', () => this.removeEventListener(type, listener), { once: true });
    }
    removeEventListener(type, listener) {
      const list = this.#listeners.get(type);
      if (!list) return;
      const index = list.findIndex((e) => e.listener === listener);
      if (index >= 0) list.splice(index, 1);
    }
    dispatchEvent(event) {
      Event.setTarget(event, this);
      const handler = this[`on${event.type}`];
      const list = [...(this.#listeners.get(event.type) ?? [])];
      if (typeof handler === 'function') list.unshift({ listener: handler, once: false });
      for (const entry of list) {
        if (entry.once) this.removeEventListener(event.type, entry.listener);
        try {
          if (typeof entry.listener === 'function') entry.listener.call(this, event);
          else entry.listener.handleEvent(event);
        } catch (error) {
          rt.uncaught(error, 'uncaughtException');
        }
        if (Event.stopped(event)) break;
      }
      return !event.defaultPrevented;
    }
  }

  class AbortSignal extends EventTarget {
    #aborted = false;
    #reason = undefined;
    onabort = null;
    constructor(key) {
      super();
      if (key !== AbortSignal.#key) throw new TypeError('Illegal constructor');
    }
    static #key = Symbol('AbortSignal');
    static create() { return new AbortSignal(AbortSignal.#key); }
    get aborted() { return this.#aborted; }
    get reason() { return this.#reason; }
    throwIfAborted() { if (this.#aborted) throw this.#reason; }
    static abortNow(signal, reason) {
      if (signal.#aborted) return;
      signal.#aborted = true;
      signal.#reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
      signal.dispatchEvent(new Event('abort'));
    }
    static abort(reason) {
      const signal = AbortSignal.create();
      AbortSignal.abortNow(signal, reason);
      return signal;
    }
    static timeout(ms) {
      const signal = AbortSignal.create();
      rt.addTimer(() => AbortSignal.abortNow(signal, new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms, [], false);
      return signal;
    }
    static any(signals) {
      const signal = AbortSignal.create();
      for (const source of signals) {
        if (source.aborted) {
          AbortSignal.abortNow(signal, source.reason);
          return signal;
        }
      }
      for (const source of signals) source.addEventListener('abort', () => AbortSignal.abortNow(signal, source.reason), { once: true });
      return signal;
    }
  }

  class AbortController {
    #signal = AbortSignal.create();
    get signal() { return this.#signal; }
    abort(reason) { AbortSignal.abortNow(this.#signal, reason); }
  }

  for (const [name, value] of Object.entries({ EventTarget, Event, CustomEvent, AbortController, AbortSignal, DOMException })) rt.setGlobal(name, value);
  rt.EventEmitter = EventEmitter;

  rt.define('events', () => {
    const module = EventEmitter;
    Object.assign(module, {
      EventEmitter,
      once,
      on,
      errorMonitor,
      captureRejectionSymbol,
      EventTarget,
      Event,
      setMaxListeners: () => {},
      getEventListeners: (target, name) => (typeof target.listeners === 'function' ? target.listeners(name) : []),
      listenerCount: (emitter, name) => emitter.listenerCount(name),
    });
    return module;
  });
})
