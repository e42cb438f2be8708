// Which node: modules a worker can import, and what each exports. The modules
// the runtime defines are real; any other built-in module (fs, net, http,
// child_process, …) imports fine but throws a clear error when used, because in
// the hidden tests a worker reaches the outside world only through the store
// and the services it is given.
(function builtinsModule(rt) {
  'use strict';

  const stubs = new Map();

  function unavailable(name, member) {
    const error = new Error(`node:${name}${member ? ` (${member})` : ''} is not available to workers in the hidden tests: `
      + 'there a worker reaches the outside world only through the store and services it is given');
    error.code = 'ERR_HIDDEN_TESTS_UNAVAILABLE';
    return error;
  }

  function stub(name, member) {
    const target = function unavailableBuiltin() {};
    return new Proxy(target, {
      apply() { throw unavailable(name, member); },
      construct() { throw unavailable(name, member); },
      get(fn, key) {
        if (typeof key === 'symbol' || key === 'then') return undefined;
        if (key === 'prototype') return fn.prototype;
        return stub(name, member ? `${member}.${key}` : key);
      },
      set() { return true; },
    });
  }

  rt.setGlobal('fetch', async function fetch() {
    const error = new TypeError('fetch failed: the hidden tests have no network; a worker reaches the outside world only through the store and services it is given');
    error.code = 'ERR_HIDDEN_TESTS_UNAVAILABLE';
    throw error;
  });

  /** The module's exports and its default export (the module object itself, as in Node.js). */
  function moduleOf(name, knownNamesJson) {
    if (rt.has(name)) {
      const exports = rt.require(name);
      return { exports, fallback: exports };
    }
    if (!stubs.has(name)) {
      const exports = {};
      for (const key of JSON.parse(knownNamesJson || '[]')) if (key !== 'default') exports[key] = stub(name, key);
      stubs.set(name, { exports, fallback: stub(name, '') });
    }
    return stubs.get(name);
  }

  /** The export names of a built-in module, as JSON; `default` is always exported too. */
  rt.builtinNames = function builtinNames(name, knownNamesJson) {
    const { exports } = moduleOf(name, knownNamesJson);
    return JSON.stringify(Object.keys(exports).filter((key) => key !== 'default'));
  };

  /** One export of a built-in module. */
  rt.builtinExport = function builtinExport(name, key) {
    const { exports, fallback } = moduleOf(name, '[]');
    return key === 'default' ? fallback : exports[key];
  };
})
