// node:assert and node:assert/strict for the worker's realm.
(function assertModule(rt) {
  'use strict';

  rt.need('inspect', 'util');

  class AssertionError extends Error {
    constructor({ message, actual, expected, operator } = {}) {
      super(message ?? `${rt.inspect(actual)} ${operator} ${rt.inspect(expected)}`);
      this.name = 'AssertionError';
      this.code = 'ERR_ASSERTION';
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
      this.generatedMessage = message === undefined;
    }
  }

  function fail(message, actual, expected, operator, defaultMessage) {
    if (message instanceof Error) throw message;
    throw new AssertionError({ message: message ?? defaultMessage, actual, expected, operator });
  }

  function matches(error, expected) {
    if (expected === undefined) return true;
    if (typeof expected === 'function') {
      if (expected.prototype !== undefined && error instanceof expected) return true;
      if (Error.isPrototypeOf(expected) || expected === Error) return false;
      return expected(error) === true;
    }
    if (expected instanceof RegExp) return expected.test(String(error?.message ?? error));
    if (typeof expected === 'object' && expected !== null) {
      return Object.keys(expected).every((key) => (expected[key] instanceof RegExp
        ? expected[key].test(String(error?.[key]))
        : rt.deepEqual(error?.[key], expected[key], true)));
    }
    return false;
  }

  function build(strict) {
    const equal = strict ? (a, b) => Object.is(a, b) : (a, b) => a == b || (Number.isNaN(a) && Number.isNaN(b));
    const deep = (a, b) => rt.deepEqual(a, b, strict);
    const assert = function ok(value, message) {
      if (!value) fail(message, value, true, '==', 'The expression evaluated to a falsy value');
    };
    Object.assign(assert, {
      ok: assert,
      AssertionError,
      fail: (message = 'Failed') => fail(message, undefined, undefined, 'fail'),
      equal: (a, b, m) => { if (!equal(a, b)) fail(m, a, b, strict ? 'strictEqual' : '==', `Expected values to be ${strict ? 'strictly ' : 'loosely '}equal:\n\n${rt.inspect(a)} !== ${rt.inspect(b)}`); },
      notEqual: (a, b, m) => { if (equal(a, b)) fail(m, a, b, '!=', `Expected "actual" to be ${strict ? 'strictly ' : 'loosely '}unequal to: ${rt.inspect(b)}`); },
      strictEqual: (a, b, m) => { if (!Object.is(a, b)) fail(m, a, b, 'strictEqual', `Expected values to be strictly equal:\n\n${rt.inspect(a)} !== ${rt.inspect(b)}`); },
      notStrictEqual: (a, b, m) => { if (Object.is(a, b)) fail(m, a, b, 'notStrictEqual', `Expected "actual" to be strictly unequal to: ${rt.inspect(b)}`); },
      deepEqual: (a, b, m) => { if (!deep(a, b)) fail(m, a, b, 'deepEqual', `Expected values to be ${strict ? 'strictly ' : 'loosely '}deep-equal:\n${rt.inspect(a)}\n\nshould equal\n\n${rt.inspect(b)}`); },
      notDeepEqual: (a, b, m) => { if (deep(a, b)) fail(m, a, b, 'notDeepEqual', `Expected "actual" not to be deep-equal to: ${rt.inspect(b)}`); },
      deepStrictEqual: (a, b, m) => { if (!rt.deepEqual(a, b, true)) fail(m, a, b, 'deepStrictEqual', `Expected values to be strictly deep-equal:\n${rt.inspect(a)}\n\nshould equal\n\n${rt.inspect(b)}`); },
      notDeepStrictEqual: (a, b, m) => { if (rt.deepEqual(a, b, true)) fail(m, a, b, 'notDeepStrictEqual', `Expected "actual" not to be strictly deep-equal to: ${rt.inspect(b)}`); },
      match: (text, pattern, m) => { if (!pattern.test(text)) fail(m, text, pattern, 'match', `The input did not match the regular expression ${pattern}. Input:\n\n${rt.inspect(text)}`); },
      doesNotMatch: (text, pattern, m) => { if (pattern.test(text)) fail(m, text, pattern, 'doesNotMatch', `The input was expected to not match the regular expression ${pattern}.`); },
      throws(fn, expected, m) {
        try {
          fn();
        } catch (error) {
          if (!matches(error, expected)) throw error;
          return;
        }
        fail(typeof expected === 'string' ? expected : m, undefined, expected, 'throws', 'Missing expected exception.');
      },
      doesNotThrow(fn, m) {
        try { fn(); } catch (error) { fail(m, error, undefined, 'doesNotThrow', `Got unwanted exception.\nActual message: "${error?.message}"`); }
      },
      async rejects(promiseOrFn, expected, m) {
        try {
          await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
        } catch (error) {
          if (!matches(error, expected)) throw error;
          return;
        }
        fail(typeof expected === 'string' ? expected : m, undefined, expected, 'rejects', 'Missing expected rejection.');
      },
      async doesNotReject(promiseOrFn, m) {
        try { await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn); } catch (error) {
          fail(m, error, undefined, 'doesNotReject', `Got unwanted rejection.\nActual message: "${error?.message}"`);
        }
      },
      ifError: (value) => { if (value !== null && value !== undefined) throw value; },
    });
    if (strict) {
      assert.equal = assert.strictEqual;
      assert.notEqual = assert.notStrictEqual;
      assert.deepEqual = assert.deepStrictEqual;
      assert.notDeepEqual = assert.notDeepStrictEqual;
    }
    return assert;
  }

  rt.define('assert', () => {
    const assert = build(false);
    assert.strict = build(true);
    assert.strict.strict = assert.strict;
    return assert;
  });
  rt.define('assert/strict', () => rt.require('assert').strict);
})
